import { customersApi } from '@yado/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { uuid } from '../../http/params.ts';
import { linkRoute, rawRoute, route } from '../../http/route.ts';
import { exportCustomers, exportFileName, exportTimeZone } from './export-customers.ts';
import { createExportLink, customerExportLinks, openExportLink } from './export-link.ts';
import type { TRuntime } from '../../runtime.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import type { TCustomerFilter } from './queries.ts';
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
  const sendCsv = async (reply: FastifyReply, ctx: TActingContext, filter: TCustomerFilter, lang: 'ja' | 'en') => {
    // Dated, and its times written, in the host's time zone, as the console shows them.
    const timeZone = await exportTimeZone(rt, ctx);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName('customers', new Date(), timeZone)}"`)
      .header('cache-control', 'no-store')
      .send(exportCustomers(rt, ctx, filter, lang, timeZone));
  };
  rawRoute(app, customersApi.exportCsv, { entitlement: 'customer.export_csv' }, async ({ query, ctx, reply }) => {
    const { lang, ...filter } = query;
    return sendCsv(reply, ctx, filter, lang ?? ctx.user.language);
  });
  // The console's download: a link for the browser to navigate to, then the file through it.
  route(
    app,
    customersApi.createExportLink,
    { entitlement: 'customer.export_csv' },
    async ({ body, ctx, request, reply }) => {
      const nonce = customerExportLinks.issueNonce(rt, request, reply);
      return createExportLink(rt, ctx, body, nonce);
    },
  );
  linkRoute(app, customersApi.downloadExport, { link: 'customer.export_csv' }, async ({ query, request, reply }) => {
    const { ctx, filter, lang } = await openExportLink(rt, query.link, request);
    // The link is in the address; no page it leads to should pass it on.
    reply.header('referrer-policy', 'no-referrer');
    return sendCsv(reply, ctx, filter, lang);
  });
  route(
    app,
    customersApi.list,
    { entitlement: 'customer.read_customer_list' },
    async ({ query, ctx }) => listCustomers(rt, ctx, query),
    {
      readsInOneTrip: true,
    },
  );
  route(app, customersApi.setEmailStatus, { entitlement: 'customer.change_email_status' }, async ({ body, ctx }) =>
    setCustomersEmailStatus(rt, ctx, body),
  );
  route(app, customersApi.get, { entitlement: 'customer.read' }, async ({ params, ctx }) =>
    getCustomer(rt, ctx, uuid(params.id)),
  );
  route(app, customersApi.create, { entitlement: 'customer.create' }, async ({ body, ctx }) =>
    createCustomer(rt, ctx, body),
  );
  route(app, customersApi.update, { entitlement: 'customer.update' }, async ({ params, body, ctx }) =>
    updateCustomer(rt, ctx, uuid(params.id), body),
  );
  route(app, customersApi.remove, { entitlement: 'customer.delete' }, async ({ params, ctx }) =>
    deleteCustomer(rt, ctx, uuid(params.id)),
  );
  route(app, customersApi.bookingHistory, { entitlement: 'customer.read' }, async ({ params, ctx }) =>
    customerBookings(rt, ctx, uuid(params.id)),
  );
  route(app, customersApi.allocationSummary, { entitlement: 'customer.read' }, async ({ params, ctx }) =>
    allocationSummary(rt, ctx, uuid(params.id)),
  );
}
