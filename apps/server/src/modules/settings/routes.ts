import { settingsApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { getHostDetail, updateHost } from '../management/host-operations.ts';
import { listAudit } from '../audit/list-audit.ts';

export function settingsRoutes(app: FastifyInstance, rt: TRuntime): void {
  route(app, settingsApi.getHostInfo, 'authenticated', async ({ ctx }) => {
    const {
      hotelGroups: _g,
      hotels: _h,
      users: _u,
      ...host
    } = await getHostDetail(rt, ctx, ctx.host.level, ctx.host.id);
    return host;
  });

  route(app, settingsApi.updateHostInfo, { entitlement: 'settings.update_host_info' }, async ({ body, ctx }) =>
    updateHost(rt, ctx, ctx.host.level, ctx.host.id, body),
  );

  // The granduser reads who changed what in a host and everything below it.
  route(app, settingsApi.auditLog, { entitlement: 'audit.read_audit_log' }, async ({ query, ctx }) =>
    inTenant(rt, ctx, (tx) => listAudit(tx, query)),
  );
}
