import { ZErrorBody } from '@yado/contracts/errors';
import type { TEndpoint } from '@yado/contracts/http';
import type { z } from 'zod';
import { ApiError } from './ApiError';
import { readToken } from '../session/storage';
import { roleSelectorHeaders, storedRoleSelector, type TRoleSelector } from '../session/roleSelector';

type TAnyEndpoint = TEndpoint<z.ZodType | undefined, z.ZodType | undefined, z.ZodType>;

type TInputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
export type TResponseData<E extends TAnyEndpoint> = z.output<E['response']> extends { data: infer D } ? D : never;

export interface TRequestOptions<E extends TAnyEndpoint> {
  body?: TInputOf<E['body']> | FormData;
  query?: TInputOf<E['query']>;
  /** Values for `:name` segments of the path. */
  params?: Record<string, string>;
  /** The acting role; by default the stored one. `null` sends the blank selector (default role). */
  roleSelector?: TRoleSelector | null;
  signal?: AbortSignal;
  /** Whether a 401 may trigger one token refresh and a retry (off for the sign-in calls). */
  refreshOn401?: boolean;
}

/** The refresher is injected by the session module, which itself calls through `request`. */
let refresher: (() => Promise<boolean>) | null = null;
export function setTokenRefresher(fn: (() => Promise<boolean>) | null): void {
  refresher = fn;
}

/** Builds `path?query` from the non-null parameters, URL-encoded (spec section 7). */
export function buildUrl(path: string, query?: Record<string, unknown>, params?: Record<string, string>): string {
  let url = path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ''));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined) continue;
    search.append(key, String(value));
  }
  const qs = search.toString();
  if (qs) url += `?${qs}`;
  return url;
}

async function send<E extends TAnyEndpoint>(
  endpoint: E,
  options: TRequestOptions<E>,
  accept = 'application/json',
): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token.accessToken}`;
  Object.assign(
    headers,
    roleSelectorHeaders(options.roleSelector === undefined ? storedRoleSelector() : options.roleSelector),
  );
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const url = buildUrl(endpoint.path, options.query as Record<string, unknown> | undefined, options.params);
  return fetch(url, {
    method: endpoint.method,
    headers,
    body,
    credentials: 'same-origin',
    signal: options.signal,
  });
}

export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? (JSON.parse(text) as unknown) : null;
}

/** Sends the call; a 401 may refresh the token once and send it again. */
export async function sendWithRefresh<E extends TAnyEndpoint>(
  endpoint: E,
  options: TRequestOptions<E>,
  accept?: string,
): Promise<Response> {
  let response = await send(endpoint, options, accept);
  if (response.status === 401 && options.refreshOn401 !== false && refresher && readToken()) {
    if (await refresher()) response = await send(endpoint, options, accept);
  }
  return response;
}

/** The ApiError of a refused answer: the server's code and fields, or the general code. */
export function failureOf(response: Response, json: unknown): ApiError {
  const failure = ZErrorBody.safeParse(json);
  if (failure.success) {
    const { code, message, fields, params } = failure.data.error;
    return new ApiError(response.status, code, message, fields, params as ApiError['params']);
  }
  return new ApiError(response.status, 'general', '');
}

/**
 * Calls an endpoint of the contracts: adds the bearer token and the role headers, resolves the
 * `data` of a 2xx answer, rejects anything else with an ApiError carrying the server's code.
 * A call that throws (network down, unreadable answer) rejects with code 000000.
 */
export async function request<E extends TAnyEndpoint>(
  endpoint: E,
  options: TRequestOptions<E> = {},
): Promise<TResponseData<E>> {
  let response: Response;
  let json: unknown;
  try {
    response = await sendWithRefresh(endpoint, options);
    json = await readJson(response);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    console.error(`${endpoint.method} ${endpoint.path} failed`, error);
    throw ApiError.exception();
  }

  if (response.ok) {
    const parsed = endpoint.response.safeParse(json);
    if (!parsed.success) {
      console.error(`${endpoint.method} ${endpoint.path}: unexpected answer`, parsed.error);
      throw ApiError.exception();
    }
    return (parsed.data as { data: TResponseData<E> }).data;
  }

  throw failureOf(response, json);
}
