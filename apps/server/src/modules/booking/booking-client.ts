import type { TGuest, TReservation } from '@yado/booking-sim';

/** The booking system's records as its API serves them (the simulator's types are its contract). */
export type TDbkGuest = TGuest;
export type TDbkReservation = TReservation;

export interface TDbkPage<T> {
  data: T[];
  next_cursor: string | null;
  has_more: boolean;
  as_of: string;
}

export interface TDbkVerification {
  ok: true;
  account_id: string;
  account_name: string;
  hotels: { code: string; name: string }[];
  verified_at: string;
}

/** A refusal or failure of the booking system, by its own error code; `status` 0: no answer. */
export class DbkError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`booking system answered ${status} ${code}`);
  }
}

export interface TDbkClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Attempts per call on 429, 5xx and network failures. */
  attempts: number;
  /** First back-off delay; doubles per attempt. A 429's Retry-After wins when it says longer. */
  retryBaseMs: number;
  timeoutMs?: number;
}

const PAGE_SIZE = 500;
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The booking system's HTTP API (apps/booking-sim/README.md): bearer key, JSON, cursor pages.
 * Retries what is worth retrying (429 after Retry-After, 5xx, no answer) and nothing else.
 */
export function createDbkClient(options: TDbkClientOptions) {
  async function call<T>(path: string, query: Record<string, string | null | undefined> = {}): Promise<T> {
    const url = new URL(options.baseUrl + path);
    for (const [k, v] of Object.entries(query)) if (v !== null && v !== undefined) url.searchParams.set(k, v);
    let delay = options.retryBaseMs;
    for (let attempt = 1; ; attempt += 1) {
      let status = 0;
      let code = 'unreachable';
      let waitMs = delay;
      try {
        const res = await fetch(url, {
          headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' },
          signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        });
        const body = (await res.json().catch(() => null)) as { data?: T; error?: { code?: string } } | null;
        if (res.ok && body && 'data' in body) return body as T;
        status = res.status;
        code = body?.error?.code ?? `http_${res.status}`;
        const retryAfter = Number(res.headers.get('retry-after'));
        if (Number.isFinite(retryAfter) && retryAfter > 0)
          waitMs = Math.max(delay, Math.min(retryAfter * 1000, MAX_RETRY_AFTER_MS));
      } catch {
        // No answer (refused, reset, timed out): worth another attempt like a 5xx.
      }
      const retryable = status === 0 || status === 429 || status >= 500;
      if (!retryable || attempt >= options.attempts) throw new DbkError(status, code);
      await new Promise((r) => setTimeout(r, waitMs));
      delay *= 2;
    }
  }

  return {
    async verify(): Promise<TDbkVerification> {
      return (await call<{ data: TDbkVerification }>('/api/v1/verify')).data;
    },
    guests(query: {
      updatedSince: string | null;
      asOf?: string | null;
      cursor?: string | null;
    }): Promise<TDbkPage<TDbkGuest>> {
      return call('/api/v1/guests', {
        updated_since: query.updatedSince,
        as_of: query.asOf,
        cursor: query.cursor,
        limit: String(PAGE_SIZE),
      });
    },
    reservations(query: {
      updatedSince: string | null;
      asOf: string;
      cursor?: string | null;
    }): Promise<TDbkPage<TDbkReservation>> {
      return call('/api/v1/reservations', {
        updated_since: query.updatedSince,
        as_of: query.asOf,
        cursor: query.cursor,
        limit: String(PAGE_SIZE),
      });
    },
    async guest(id: string, asOf: string): Promise<TDbkGuest | null> {
      try {
        return (await call<{ data: TDbkGuest }>(`/api/v1/guests/${encodeURIComponent(id)}`, { as_of: asOf })).data;
      } catch (error) {
        if (error instanceof DbkError && error.status === 404) return null;
        throw error;
      }
    },
  };
}

export type TDbkClient = ReturnType<typeof createDbkClient>;
