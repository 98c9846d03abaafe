import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountWorld } from './account-world.ts';
import { formatJstTimestamp, parseInstant } from './calendar.ts';
import type { ChangeLog } from './change-log.ts';
import { decodeCursor, encodeCursor, type TResourceKind } from './cursor.ts';
import type { FaultInjector } from './fault-injector.ts';
import type { RateLimiter } from './rate-limiter.ts';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;

export interface THandlerContext {
  /** The simulated clock, in epoch milliseconds. */
  now: () => number;
  worldForApiKey: (apiKey: string) => AccountWorld | undefined;
  rateLimiter: RateLimiter | null;
  faults: FaultInjector;
  onError: (error: unknown) => void;
}

export type TErrorCode =
  | 'unauthorized'
  | 'account_suspended'
  | 'not_found'
  | 'method_not_allowed'
  | 'invalid_query'
  | 'invalid_cursor'
  | 'rate_limited'
  | 'internal_error'
  | 'bad_gateway'
  | 'service_unavailable'
  | 'gateway_timeout';

/** An answer other than success: a status, a stable code and an English message. */
export class SimHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: TErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

interface TApiRequest {
  method: string;
  query: URLSearchParams;
  world: AccountWorld;
  params: string[];
}

interface TRoute {
  pattern: RegExp;
  methods: readonly string[];
  handle: (request: TApiRequest, context: THandlerContext) => unknown;
}

const ROUTES: readonly TRoute[] = [
  {
    pattern: /^\/api\/v1\/account$/,
    methods: ['GET'],
    handle: ({ query, world }) => (noQuery(query), { data: describeAccount(world) }),
  },
  {
    pattern: /^\/api\/v1\/verify$/,
    methods: ['GET', 'POST'],
    handle: ({ query, world }, context) => {
      noQuery(query);
      const { id, name, hotels } = describeAccount(world);
      return {
        data: { ok: true, account_id: id, account_name: name, hotels, verified_at: formatJstTimestamp(context.now()) },
      };
    },
  },
  {
    pattern: /^\/api\/v1\/guests$/,
    methods: ['GET'],
    handle: (request, context) => listPage(request, context, 'guests'),
  },
  {
    pattern: /^\/api\/v1\/guests\/([^/]+)$/,
    methods: ['GET'],
    handle: (request, context) => getOne(request, context, 'guests'),
  },
  {
    pattern: /^\/api\/v1\/reservations$/,
    methods: ['GET'],
    handle: (request, context) => listPage(request, context, 'reservations'),
  },
  {
    pattern: /^\/api\/v1\/reservations\/([^/]+)$/,
    methods: ['GET'],
    handle: (request, context) => getOne(request, context, 'reservations'),
  },
];

const SERVER_ERRORS = {
  500: ['internal_error', 'The booking system had an internal error.'],
  502: ['bad_gateway', 'The booking system is unreachable behind its gateway.'],
  503: ['service_unavailable', 'The booking system is temporarily unavailable.'],
  504: ['gateway_timeout', 'The booking system did not answer in time.'],
} as const;

/**
 * The booking system's HTTP API as a plain node:http listener. Every request is answered with
 * JSON, whatever goes wrong: a client bug is a 4xx with a code, and an unexpected failure here
 * is a 500 that is reported through `onError`, never a crashed process.
 */
export function createRequestHandler(
  context: THandlerContext,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    // Bodies are never read (verify takes none); draining lets keep-alive connections carry on.
    request.resume();
    request.on('error', context.onError);
    try {
      const body = route(request, context);
      send(response, 200, body);
    } catch (error) {
      if (error instanceof SimHttpError) {
        send(
          response,
          error.status,
          { error: { code: error.code, message: error.message, ...error.details } },
          error.headers,
        );
        return;
      }
      context.onError(error);
      send(response, 500, { error: { code: 'internal_error', message: SERVER_ERRORS[500][1] } });
    }
  };
}

function route(request: IncomingMessage, context: THandlerContext): unknown {
  const url = parseUrl(request.url ?? '/');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
  const method = request.method ?? 'GET';
  if (path === '/healthz' && method === 'GET') return { status: 'ok' };

  let matched: { route: TRoute; params: string[] } | null = null;
  for (const candidate of ROUTES) {
    const match = candidate.pattern.exec(path);
    if (match) {
      matched = { route: candidate, params: match.slice(1).map(decodeSegment) };
      break;
    }
  }
  if (!matched) throw new SimHttpError(404, 'not_found', `No such endpoint: ${path}`);
  if (!matched.route.methods.includes(method)) {
    throw new SimHttpError(
      405,
      'method_not_allowed',
      `${method} is not allowed here.`,
      {},
      { allow: matched.route.methods.join(', ') },
    );
  }

  const world = authenticate(request, context);
  if (world.account.suspended)
    throw new SimHttpError(403, 'account_suspended', 'This booking-system contract is suspended.');
  if (context.rateLimiter) {
    const decision = context.rateLimiter.take(world.account.apiKey);
    if (!decision.allowed) {
      throw new SimHttpError(
        429,
        'rate_limited',
        'Too many requests. Wait for the number of seconds in Retry-After.',
        { retry_after_seconds: decision.retryAfterSeconds },
        { 'retry-after': String(decision.retryAfterSeconds) },
      );
    }
  }
  const failure = context.faults.next(world.account.id);
  if (failure !== null) {
    const [code, message] = SERVER_ERRORS[failure];
    throw new SimHttpError(failure, code, message, {}, failure === 503 ? { 'retry-after': '1' } : {});
  }
  return matched.route.handle({ method, query: url.searchParams, world, params: matched.params }, context);
}

function authenticate(request: IncomingMessage, context: THandlerContext): AccountWorld {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const world = match?.[1] ? context.worldForApiKey(match[1]) : undefined;
  if (!world) {
    throw new SimHttpError(
      401,
      'unauthorized',
      'A valid API key is required: Authorization: Bearer <api key>.',
      {},
      { 'www-authenticate': 'Bearer' },
    );
  }
  return world;
}

function describeAccount(world: AccountWorld) {
  return {
    id: world.account.id,
    name: world.account.name,
    time_zone: 'Asia/Tokyo',
    hotels: world.account.hotels.map((h) => ({ code: h.code, name: h.name })),
  };
}

function logOf(world: AccountWorld, kind: TResourceKind): ChangeLog<{ id: string }> {
  return kind === 'guests' ? world.guests : world.reservations;
}

/**
 * One page of records changed in (updated_since, as_of], ordered by (updated_at, id). The first
 * page fixes `as_of` (default: now) and every later page, through the cursor, reads the same
 * snapshot, so a slow client never sees a record twice or skips one while the data moves on.
 */
function listPage({ query, world }: TApiRequest, context: THandlerContext, kind: TResourceKind) {
  const now = context.now();
  onlyParameters(query, ['updated_since', 'as_of', 'cursor', 'limit']);
  const limit = parseLimit(query.get('limit'));
  const since = optionalInstant(query, 'updated_since');
  const asOf = optionalInstant(query, 'as_of');
  if (asOf !== null && asOf > now) throw invalidQuery('as_of', 'as_of is in the future.');

  let filter: { since: number | null; asOf: number; after: { at: number; id: string } | null };
  const cursorText = query.get('cursor');
  if (cursorText !== null) {
    const cursor = decodeCursor(cursorText, kind);
    if (!cursor)
      throw new SimHttpError(400, 'invalid_cursor', 'The cursor is not one this endpoint issued.', { field: 'cursor' });
    // Resending the first page's filters with the cursor is fine; changing them is a client bug.
    if ((since !== null && since !== cursor.since) || (asOf !== null && asOf !== cursor.asOf)) {
      throw new SimHttpError(400, 'invalid_cursor', 'updated_since and as_of must not change between pages.', {
        field: 'cursor',
      });
    }
    filter = { since: cursor.since, asOf: cursor.asOf, after: { at: cursor.afterAt, id: cursor.afterId } };
  } else {
    filter = { since, asOf: asOf ?? now, after: null };
  }

  world.advanceTo(now);
  const page = logOf(world, kind).page({ ...filter, limit });
  const next =
    page.hasMore && page.last
      ? encodeCursor({ kind, since: filter.since, asOf: filter.asOf, afterAt: page.last.at, afterId: page.last.id })
      : null;
  return { data: page.items, next_cursor: next, has_more: page.hasMore, as_of: formatJstTimestamp(filter.asOf) };
}

function getOne({ query, world, params }: TApiRequest, context: THandlerContext, kind: TResourceKind) {
  const now = context.now();
  onlyParameters(query, ['as_of']);
  const asOf = optionalInstant(query, 'as_of') ?? now;
  if (asOf > now) throw invalidQuery('as_of', 'as_of is in the future.');
  world.advanceTo(now);
  const id = params[0] ?? '';
  const record = logOf(world, kind).asOf(id, asOf);
  if (!record) throw new SimHttpError(404, 'not_found', `No ${kind === 'guests' ? 'guest' : 'reservation'} ${id}.`);
  return { data: record };
}

function noQuery(query: URLSearchParams): void {
  onlyParameters(query, []);
}

function onlyParameters(query: URLSearchParams, allowed: readonly string[]): void {
  for (const key of new Set(query.keys())) {
    if (!allowed.includes(key)) throw invalidQuery(key, `Unknown query parameter: ${key}.`);
    if (query.getAll(key).length > 1) throw invalidQuery(key, `${key} is given more than once.`);
  }
}

function parseLimit(text: string | null): number {
  if (text === null) return DEFAULT_PAGE_SIZE;
  const limit = /^\d{1,6}$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= MAX_PAGE_SIZE))
    throw invalidQuery('limit', `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.`);
  return limit;
}

function optionalInstant(query: URLSearchParams, field: string): number | null {
  const text = query.get(field);
  if (text === null) return null;
  const ms = parseInstant(text);
  if (ms === null)
    throw invalidQuery(field, `${field} must be an ISO 8601 date-time with an offset, e.g. 2026-11-01T00:00:00+09:00.`);
  return ms;
}

function invalidQuery(field: string, message: string): SimHttpError {
  return new SimHttpError(400, 'invalid_query', message, { field });
}

function parseUrl(target: string): URL {
  try {
    return new URL(target, 'http://booking-sim.invalid');
  } catch {
    throw new SimHttpError(404, 'not_found', 'No such endpoint.');
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape cannot name any record; an impossible id makes it a plain 404.
    return '\u0000';
  }
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const json = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(json);
}
