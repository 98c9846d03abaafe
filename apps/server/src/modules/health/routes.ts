import { authApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { BOOKING_SYNC_HOUR } from '../../constants.ts';
import { readiness } from './readiness.ts';

export function healthRoutes(app: FastifyInstance, rt: TRuntime): void {
  // Liveness: the process answers. Cheap (no database), so a poll every second costs nothing and
  // a database outage does not get every process restarted; its request lines are at debug.
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => reply.send({ status: 'ok' }));
  // Readiness: PostgreSQL answers, the schema is at head, the worker's lease (if any) is fresh.
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const answer = await readiness(rt);
    return reply
      .status(answer.ready ? 200 : 503)
      .send({ status: answer.ready ? 'ready' : 'not_ready', ...answer.checks });
  });

  route(app, authApi.publicConfig, 'public', async () => ({
    environment: rt.config.environment,
    embedded: rt.config.embedded,
    features: rt.config.features,
    bookingSyncHour: BOOKING_SYNC_HOUR,
  }));
}
