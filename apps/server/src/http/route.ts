import type { TEndpoint, TEntitlement } from '@yado/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TActingContext } from '../modules/tenancy/acting-context.ts';
import { rememberedSession } from '../modules/auth/session-cache.ts';
import { AppError, StaleSessionError } from './errors.ts';

/**
 * Who may call a route. Every /v1 route states one; the route walk test reads them all.
 * - public: anyone, signed in or not
 * - authenticated: any active user in a context they may take
 * - an entitlement key: that, and the key must be true in the acting context
 * - anyOf: at least one of the keys
 * - granduser: the granduser only
 * - embedded-granduser: the granduser, and only while mail goes to the embedded sink
 * - link: no bearer token; the path carries a signed download link whose handler re-derives the
 *   acting context and checks the entitlement when it is used (`linkRoute`)
 */
export type TAccess =
  | 'public'
  | 'authenticated'
  | 'embedded-granduser'
  | 'granduser'
  | { entitlement: TEntitlement }
  | { anyOf: TEntitlement[] }
  | { link: TEntitlement };

export interface TRegisteredRoute {
  method: string;
  path: string;
  access: TAccess;
}

type TInfer<T> = [NonNullable<T>] extends [never]
  ? undefined
  : NonNullable<T> extends z.ZodType
    ? z.infer<NonNullable<T>>
    : undefined;

export interface TRouteInput<E extends TEndpoint> {
  body: TInfer<E['body']>;
  query: TInfer<E['query']>;
  params: Record<string, string>;
  request: FastifyRequest;
  reply: FastifyReply;
}
export interface TAuthedInput<E extends TEndpoint> extends TRouteInput<E> {
  ctx: TActingContext;
}

type TData<E extends TEndpoint> = z.infer<E['response']> extends { data: infer D } ? D : never;

/** Resolves the acting context of a request or throws 401/403. Installed by the auth module. */
export type TAuthenticate = (request: FastifyRequest, deferred?: boolean) => Promise<TActingContext>;

declare module 'fastify' {
  interface FastifyRequest {
    actingContext: TActingContext | null;
  }
  interface FastifyInstance {
    registeredRoutes: TRegisteredRoute[];
    /** Every route Fastify knows (plugins' too), to prove each /v1 route states its access. */
    allRoutes: { method: string; url: string }[];
    authenticate: TAuthenticate;
    embeddedMail: boolean;
  }
}

/**
 * `readsInOneTrip`: the handler only reads, through readAs, which confirms the session in the
 * same round trip as the data; so the guard may act on a session this process remembers instead
 * of reading it first. A handler that ends without that confirmation is confirmed afterwards.
 */
export interface TRouteOptions {
  readsInOneTrip?: boolean;
}

export function route<E extends TEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  access: 'public',
  handler: (input: TRouteInput<E>) => Promise<TData<E>>,
): void;
export function route<E extends TEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  access: Exclude<TAccess, 'public'>,
  handler: (input: TAuthedInput<E>) => Promise<TData<E>>,
  options?: TRouteOptions,
): void;
export function route<E extends TEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  access: TAccess,
  handler: (input: TAuthedInput<E>) => Promise<TData<E>>,
  options: TRouteOptions = {},
): void {
  const deferred = access !== 'public' && options.readsInOneTrip === true;
  app.registeredRoutes.push({ method: endpoint.method, path: endpoint.path, access });
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      summary: endpoint.summary,
      tags: [endpoint.path.split('/')[2] ?? 'v1'],
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      response: { 200: endpoint.response },
      ...(access === 'public' ? {} : { security: [{ bearer: [] }] }),
    },
    // Who is calling is settled before the body is even parsed: a caller without access learns
    // nothing from validation messages.
    onRequest: guard(app, access, deferred),
    handler: async (request, reply) => {
      if (!deferred) return { data: await handler(inputOf<E>(request, reply)) };
      let data: TData<E>;
      try {
        data = await handler(inputOf<E>(request, reply));
      } catch (error) {
        if (!(error instanceof StaleSessionError)) throw error;
        await admit(app, request, access as Exclude<TAccess, 'public'>, false);
        return { data: await handler(inputOf<E>(request, reply)) };
      }
      const unconfirmed = request.actingContext?.unconfirmed;
      if (unconfirmed && !unconfirmed.confirmed) {
        // The handler did not confirm the session it acted on: read it now, and if it has changed,
        // answer from the fresh one instead.
        await admit(app, request, access as Exclude<TAccess, 'public'>, false);
        if (rememberedSession(unconfirmed.userId)?.fingerprint !== unconfirmed.fingerprint)
          return { data: await handler(inputOf<E>(request, reply)) };
      }
      return { data };
    },
  });
}

/**
 * Resolves the acting context, checks it against the route's access rule and puts it on the
 * request; `deferred` as in TAuthenticate.
 */
async function admit(
  app: FastifyInstance,
  request: FastifyRequest,
  access: Exclude<TAccess, 'public'>,
  deferred: boolean,
): Promise<void> {
  request.actingContext = null;
  let ctx = await app.authenticate(request, deferred);
  // A refusal is never given on a remembered session: it may have changed since.
  if (ctx.unconfirmed && !mayCall(access, ctx, app.embeddedMail)) ctx = await app.authenticate(request);
  if (!mayCall(access, ctx, app.embeddedMail)) throw new AppError(403, 'forbidden');
  if (access === 'embedded-granduser' && !app.embeddedMail) throw new AppError(404, 'embedded_only');
  request.actingContext = ctx;
}

/** What a handler receives: the validated body and query, the path parameters, the acting context. */
function inputOf<E extends TEndpoint>(request: FastifyRequest, reply: FastifyReply): TAuthedInput<E> {
  return {
    body: request.body as TInfer<E['body']>,
    query: request.query as TInfer<E['query']>,
    params: request.params as Record<string, string>,
    request,
    reply,
    ctx: request.actingContext as TActingContext,
  };
}

function guard(app: FastifyInstance, access: TAccess, deferred = false) {
  return async (request: FastifyRequest) => {
    request.actingContext = null;
    if (access === 'public') return;
    await admit(app, request, access, deferred);
  };
}

/** The OpenAPI description of a route that answers with a file: its summary, tag and query. */
function fileSchema(endpoint: TEndpoint) {
  return {
    summary: endpoint.summary,
    tags: [endpoint.path.split('/')[2] ?? 'v1'],
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
  };
}

/**
 * A route whose answer is not a JSON envelope (a CSV download, say): the same access rule and
 * query validation, and the handler writes the reply itself.
 */
export function rawRoute<E extends TEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  access: Exclude<TAccess, 'public'>,
  handler: (input: TAuthedInput<E>) => Promise<unknown>,
): void {
  app.registeredRoutes.push({ method: endpoint.method, path: endpoint.path, access });
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    schema: { ...fileSchema(endpoint), security: [{ bearer: [] }] },
    onRequest: guard(app, access),
    handler: async (request, reply) => handler(inputOf<E>(request, reply)),
  });
}

/**
 * A file the browser downloads by navigating to a link it was given (no Authorization header can
 * go with a navigation). The handler opens the link and answers for the entitlement itself.
 */
export function linkRoute<E extends TEndpoint>(
  app: FastifyInstance,
  endpoint: E,
  access: { link: TEntitlement },
  handler: (input: TRouteInput<E>) => Promise<unknown>,
): void {
  app.registeredRoutes.push({ method: endpoint.method, path: endpoint.path, access });
  app.withTypeProvider<ZodTypeProvider>().route({
    method: endpoint.method,
    url: endpoint.path,
    schema: fileSchema(endpoint),
    onRequest: async (request) => {
      request.actingContext = null;
    },
    handler: async (request, reply) => handler(inputOf<E>(request, reply)),
  });
}

function mayCall(access: Exclude<TAccess, 'public'>, ctx: TActingContext, embeddedMail: boolean): boolean {
  if (access === 'authenticated') return true;
  if (access === 'granduser') return ctx.role === 'granduser';
  if (access === 'embedded-granduser') return ctx.role === 'granduser' || !embeddedMail;
  if ('entitlement' in access) return ctx.entitlements[access.entitlement];
  // A link is opened by its own route; a bearer token never stands in for it.
  if ('link' in access) return false;
  return access.anyOf.some((key) => ctx.entitlements[key]);
}
