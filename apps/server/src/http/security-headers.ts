import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: this route sets its own headers (the tracking pixel and redirect). */
    securityHeaders?: false;
  }
}

/**
 * helmet's response headers on every route but those whose config says `securityHeaders: false`.
 * The middleware is built once, at start: @fastify/helmet built it anew for every request (every
 * directive parsed again, a dozen closures made), which was most of what a relay webhook's
 * request allocated, and with it much of the server's garbage collection (issue 25's bench).
 * A directive given as a function is still read per response, by helmet itself.
 */
export function securityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const apply = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.securityHeaders === false) return done();
    // helmet throws rather than passing an error on (since 8.1); its callback's argument is never set.
    apply(request.raw, reply.raw, () => done());
  });
}
