import { settingsApi } from '@yado/contracts';
import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { auditLog, hosts, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { getHostDetail, updateHost } from '../management/host-operations.ts';
import { qualified } from '../../db/qualified.ts';

export function settingsRoutes(app: FastifyInstance, rt: TRuntime): void {
  route(app, settingsApi.getHostInfo, 'authenticated', async ({ ctx }) => {
    const { hotelGroups: _g, hotels: _h, users: _u, ...host } = await getHostDetail(rt, ctx, ctx.host.level, ctx.host.id);
    return host;
  });

  route(app, settingsApi.updateHostInfo, { entitlement: 'settings.update_host_info' }, async ({ body, ctx }) =>
    updateHost(rt, ctx, ctx.host.level, ctx.host.id, body),
  );

  // The granduser reads who changed what in a host and everything below it.
  route(app, settingsApi.auditLog, 'granduser', async ({ query, ctx }) =>
    inTenant(rt, ctx, async (tx) => {
      let scope = sql`true`;
      if (query.hostId) {
        const [host] = await tx.select({ id: hosts.id, level: hosts.level, brandId: hosts.brandId }).from(hosts).where(eq(hosts.id, query.hostId));
        if (!host) throw new AppError(404, 'not_found');
        scope =
          host.level === 'brand'
            ? sql`${auditLog.brandId} = ${host.id}`
            : (or(eq(auditLog.targetId, host.id), eq(auditLog.actingHostId, host.id)) as typeof scope);
      }
      const actingHost = sql<string | null>`(select h.name from hosts h where h.id = ${qualified(auditLog.actingHostId)})`;
      const rows = await tx
        .select({
          id: auditLog.id,
          at: auditLog.at,
          actorEmail: users.email,
          actingHostName: actingHost,
          actingRole: auditLog.actingRole,
          action: auditLog.action,
          targetType: auditLog.targetType,
          targetId: auditLog.targetId,
          changes: auditLog.changes,
        })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorUserId))
        .where(and(scope, query.before ? lt(auditLog.id, query.before) : undefined))
        .orderBy(desc(auditLog.id))
        .limit(query.limit);
      return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
    }),
  );
}
