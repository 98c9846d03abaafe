import { authApi } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { BOOKING_SYNC_HOUR } from '../../constants.ts';

export function healthRoutes(app: FastifyInstance, rt: TRuntime): void {
  // Liveness and readiness in one: answers 200 only while the database answers.
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    await rt.database.executeSql('select 1');
    return reply.send({ status: 'ok' });
  });

  route(app, authApi.publicConfig, 'public', async () => ({
    environment: rt.config.environment,
    embedded: rt.config.embedded,
    features: rt.config.features,
    bookingSyncHour: BOOKING_SYNC_HOUR,
  }));
}
