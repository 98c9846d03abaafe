import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { ERROR_MESSAGES } from '@yado/contracts';
import { registerErrorHandler } from './http/errors.ts';
import { SCHEMA_FAULT_CODES } from './http/issue-code.ts';
import { securityHeaders } from './http/security-headers.ts';
import { refuseUnstorableText } from './http/unstorable-text.ts';
import { makeAuthenticate } from './modules/auth/authenticate.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { customerImportRoutes } from './modules/customer-imports/routes.ts';
import { bookingRoutes } from './modules/booking/routes.ts';
import { customerRoutes } from './modules/customers/routes.ts';
import { deliverabilityRoutes } from './modules/deliverability/routes.ts';
import { segmentRoutes } from './modules/segments/routes.ts';
import { devRoutes } from './modules/dev/routes.ts';
import { sendingRoutes } from './modules/sending/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { locationRoutes } from './modules/locations/routes.ts';
import { managementRoutes } from './modules/management/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { uploadRoutes } from './modules/uploads/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { templateRoutes } from './modules/templates/routes.ts';
import { campaignRoutes } from './modules/campaigns/routes.ts';
import { scenarioRoutes } from './modules/scenarios/routes.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { trackingRoutes } from './modules/tracking/routes.ts';
import type { TRuntime } from './runtime.ts';
import { observeHttp } from './metrics/metrics.ts';

/** Request bodies larger than this are refused with 413 (imports use multipart, not this limit). */
export const BODY_LIMIT = 1024 * 1024;

/**
 * Paths the console never owns (the API's, and the operations listener's `/metrics`, which the
 * public port answers 404 so a scraper pointed at it learns its mistake); every other GET or HEAD
 * for a page gets index.html.
 */
const API_PREFIXES = ['/v1/', '/t/', '/files/', '/healthz', '/readyz', '/metrics'];

/** A request slower than this is logged at info; every other request at debug. */
export const SLOW_REQUEST_MS = 1000;

/**
 * The request log: one line per request at debug (so LOG_LEVEL=info, the default, leaves out the
 * polls of /healthz and the console's every call), at info when the request took longer than
 * SLOW_REQUEST_MS, at error when it failed with a server error. Errors the handler met are logged
 * by the error handler (http/errors.ts) as well.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { res: reply, responseTime: reply.elapsedTime };
    if (error || reply.statusCode >= 500) reply.log.error({ ...line, err: error ?? undefined }, 'request errored');
    else if (reply.elapsedTime > SLOW_REQUEST_MS) reply.log.info(line, 'slow request');
    else reply.log.debug(line, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'route not found');
  }
}

/**
 * An error as a log line may show it: type, message and stack, but never the SQL parameters or
 * the query text of a database error, which can hold an email, a phone number or a token.
 */
export function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const cause = (error as { cause?: unknown }).cause;
  const isQueryError = 'query' in error || 'params' in error;
  const source = isQueryError && cause instanceof Error ? cause : error;
  return {
    type: error.name,
    message: isQueryError ? `database error: ${source.message}` : error.message,
    code: (source as { code?: string }).code,
    stack: isQueryError ? undefined : error.stack,
  };
}

/**
 * Log lines carry the method, the path without its query (which may hold a token or an email),
 * and the status: never headers, cookies or bodies.
 */
export const loggerOptions = (level: string) => ({
  level,
  serializers: {
    req: (req: { method: string; url: string; id: string }) => ({
      id: req.id,
      method: req.method,
      path: req.url.split('?')[0],
    }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    err: serializeError,
  },
});

function imageOrigins(rt: TRuntime): string[] {
  const store = rt.config.logoStore;
  const urls = [rt.config.publicUrl, store.kind === 's3' ? store.publicUrl : null];
  return [...new Set(urls.filter((u): u is string => !!u).map((u) => new URL(u).origin))];
}

export async function buildApp(rt: TRuntime): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: rt.log,
    bodyLimit: BODY_LIMIT,
    // Only the named proxies' X-Forwarded-For is believed (TRUST_PROXY); by default none, so
    // request.ip, which every per-client limit keys on, is the socket's address.
    trustProxy: rt.config.trustProxy.length > 0 ? rt.config.trustProxy : false,
    logController: new RequestLog(),
    // A click token carries its link's address (modules/tracking/links.ts).
    routerOptions: { maxParamLength: 4096 },
  });
  app.decorate('registeredRoutes', []);
  app.decorate('allRoutes', []);
  app.decorateRequest('actingContext', null);
  app.addHook('onRoute', (options) => {
    for (const method of [options.method].flat()) app.allRoutes.push({ method, url: options.url });
  });
  app.addHook('onResponse', async (request, reply) => {
    observeHttp(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.decorate('authenticate', makeAuthenticate(rt));
  app.decorate('embeddedMail', rt.config.embedded);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Before any route: every route's body, query and parameters (http/unstorable-text.ts).
  refuseUnstorableText(app);

  await app.register(cookie);
  securityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Mantine sets style attributes at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Mail previews link images by their absolute public address (PUBLIC_URL, S3_PUBLIC_URL),
        // which need not be the address the console is opened at.
        // Read per response: the address may be settled after start (a free port chosen at listen).
        imgSrc: ["'self'", 'data:', 'blob:', () => imageOrigins(rt).join(' ')],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Yado API',
        version: '1.0.0',
        description:
          'Hotel email marketing and CRM console API. A failure answers `{ error: { code, message, fields?, params? } }` ' +
          'with a code of the catalogue; `params` holds the values its message names, each a string or a list of names. A request that does not fit its schema answers 400 `validation_failed`, each faulty field ' +
          `under \`fields\` by its path (\`emails.1\`) with one of ${SCHEMA_FAULT_CODES.join(', ')} or a code its schema ` +
          'names; a segment filter answers 400 `filter_invalid` with the place and kind of each fault.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
    // Named (recursive) schemas, such as the segment filter's group, become components.
    transformObject: jsonSchemaTransformObject,
  });

  // Every /v1 route below is registered through `route`, which records its access rule.
  await app.register(async (api) => {
    healthRoutes(api, rt);
    authRoutes(api, rt);
    devRoutes(api, rt);
    managementRoutes(api, rt);
    userRoutes(api, rt);
    settingsRoutes(api, rt);
    uploadRoutes(api, rt);
    customerRoutes(api, rt);
    deliverabilityRoutes(api, rt);
    customerImportRoutes(api, rt);
    bookingRoutes(api, rt);
    locationRoutes(api, rt);
    sendingRoutes(api, rt);
    templateRoutes(api, rt);
    segmentRoutes(api, rt);
    campaignRoutes(api, rt);
    scenarioRoutes(api, rt);
    trackingRoutes(api, rt);
    dashboardRoutes(api, rt);
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, { routePrefix: '/v1/docs', staticCSP: false });

  const hasConsole = existsSync(join(rt.config.webDist, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: rt.config.webDist,
      wildcard: false,
      index: false,
      // Hashed asset names never change; index.html must always be fresh.
      setHeaders: (res, path) => {
        res.header('cache-control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // An asset that is not there (a chunk of an earlier build, asked for by a console opened before
    // a deploy) is a 404: answered with the page, the browser got HTML for a script it cannot run.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/assets/') &&
      !API_PREFIXES.some((p) => path.startsWith(p) || path === p.replace(/\/$/, ''));
    if (isPage && hasConsole) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ error: { code: 'not_found', message: ERROR_MESSAGES.not_found } });
  });
  return app;
}
