import { customersApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { uuid } from '../../http/params.ts';
import { rawRoute, route } from '../../http/route.ts';
import { exportCustomers } from './export-customers.ts';
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
  rawRoute(app, customersApi.exportCsv, { entitlement: 'customer.export_csv' }, async ({ query, ctx, reply }) => {
    const { lang, ...filter } = query;
    const stamp = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="customers-${stamp}.csv"`)
      .header('cache-control', 'no-store')
      .send(exportCustomers(rt, ctx, filter, lang ?? ctx.user.language));
  });
  route(app, customersApi.list, { entitlement: 'customer.read_customer_list' }, async ({ query, ctx }) => listCustomers(rt, ctx, query));
  route(app, customersApi.setEmailStatus, { entitlement: 'customer.change_email_status' }, async ({ body, ctx }) => setCustomersEmailStatus(rt, ctx, body));
  route(app, customersApi.get, { entitlement: 'customer.read' }, async ({ params, ctx }) => getCustomer(rt, ctx, uuid(params.id)));
  route(app, customersApi.create, { entitlement: 'customer.create' }, async ({ body, ctx }) => createCustomer(rt, ctx, body));
  route(app, customersApi.update, { entitlement: 'customer.update' }, async ({ params, body, ctx }) => updateCustomer(rt, ctx, uuid(params.id), body));
  route(app, customersApi.remove, { entitlement: 'customer.delete' }, async ({ params, ctx }) => deleteCustomer(rt, ctx, uuid(params.id)));
  route(app, customersApi.bookingHistory, { entitlement: 'customer.read' }, async ({ params, ctx }) => customerBookings(rt, ctx, uuid(params.id)));
  route(app, customersApi.allocationSummary, { entitlement: 'customer.read' }, async ({ params, ctx }) => allocationSummary(rt, ctx, uuid(params.id)));
}
