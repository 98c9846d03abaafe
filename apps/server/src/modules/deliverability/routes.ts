import { deliverabilityApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { uuid } from '../../http/params.ts';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { addSuppression, liftSuppression, listSuppressions } from './suppression-list.ts';

export function deliverabilityRoutes(app: FastifyInstance, rt: TRuntime): void {
  route(app, deliverabilityApi.list, { entitlement: 'customer.read_customer_list' }, async ({ query, ctx }) =>
    listSuppressions(rt, ctx, query),
  );
  route(app, deliverabilityApi.lift, { entitlement: 'customer.change_email_status' }, async ({ params, ctx }) =>
    liftSuppression(rt, ctx, uuid(params.id)),
  );
  route(app, deliverabilityApi.add, { entitlement: 'customer.change_email_status' }, async ({ body, ctx }) =>
    addSuppression(rt, ctx, body),
  );
}
