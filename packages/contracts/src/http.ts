import { z } from 'zod';

/** Success envelope of every JSON answer (DESIGN section 6). */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data });

/**
 * One endpoint: its method, path, and the schemas of what goes in and comes out. The server
 * registers routes from these; the console's request helper calls through them.
 */
export interface TEndpoint<
  TBody extends z.ZodType | undefined = z.ZodType | undefined,
  TQuery extends z.ZodType | undefined = z.ZodType | undefined,
  TResponse extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  body?: TBody;
  query?: TQuery;
  response: TResponse;
}

export const defineEndpoint = <
  TBody extends z.ZodType | undefined = undefined,
  TQuery extends z.ZodType | undefined = undefined,
  TResponse extends z.ZodType = z.ZodType,
>(
  endpoint: TEndpoint<TBody, TQuery, TResponse>,
) => endpoint;

/** The acting-context headers (DESIGN section 4); blank or one space means the default role. */
export const CONTEXT_HEADERS = {
  role: 'x-user-role',
  slug: 'x-host-slug',
  level: 'x-host-level',
} as const;
