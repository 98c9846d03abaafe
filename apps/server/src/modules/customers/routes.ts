import { customersApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { uuid } from '../../http/params.ts';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import {
  allocationSummary,
  createCustomer,
  customerBookings,
  deleteCustomer,
  getCustomer,
  listCustomers,
  setCustomersEmailStatus,
  updateCustomer,
} from './customer-operations.ts';

export function customerRoutes(app: FastifyInstance, rt: TRuntime): void {
  route(app, customersApi.list, { entitlement: 'customer.read_customer_list' }, async ({ query, ctx }) => listCustomers(rt, ctx, query));
  route(app, customersApi.setEmailStatus, { entitlement: 'customer.change_email_status' }, async ({ body, ctx }) => setCustomersEmailStatus(rt, ctx, body));
  route(app, customersApi.get, { entitlement: 'customer.read' }, async ({ params, ctx }) => getCustomer(rt, ctx, uuid(params.id)));
  route(app, customersApi.create, { entitlement: 'customer.create' }, async ({ body, ctx }) => createCustomer(rt, ctx, body));
  route(app, customersApi.update, { entitlement: 'customer.update' }, async ({ params, body, ctx }) => updateCustomer(rt, ctx, uuid(params.id), body));
  route(app, customersApi.remove, { entitlement: 'customer.delete' }, async ({ params, ctx }) => deleteCustomer(rt, ctx, uuid(params.id)));
  route(app, customersApi.bookingHistory, { entitlement: 'customer.read' }, async ({ params, ctx }) => customerBookings(rt, ctx, uuid(params.id)));
  route(app, customersApi.allocationSummary, { entitlement: 'customer.read' }, async ({ params, ctx }) => allocationSummary(rt, ctx, uuid(params.id)));
}
