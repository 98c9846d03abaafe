import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/**
 * The routes that take a file (`multipart/form-data`: a logo, a template image, a customer import,
 * a segment's member file), in a scope of their own where `@fastify/multipart` is registered. Every
 * other route refuses such a body as any body it does not read (415 `unsupported_media_type`), and
 * is spared the plugin's two hooks on every request (registered for the whole API, they were a
 * share of each relay webhook's allocations: docs/benchmarks.md, bounces).
 */
export function fileRoutes(app: FastifyInstance, register: (scope: FastifyInstance) => void): void {
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { files: 1, fields: 10 } });
    register(scope);
  });
}
