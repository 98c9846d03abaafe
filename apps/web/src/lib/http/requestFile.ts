import type { TEndpoint } from '@yado/contracts/http';
import type { z } from 'zod';
import { ApiError } from './ApiError';
import { failureOf, readJson, sendWithRefresh, type TRequestOptions } from './request';

type TAnyEndpoint = TEndpoint<z.ZodType | undefined, z.ZodType | undefined, z.ZodType>;

/**
 * Calls an endpoint that answers with a file (a CSV export): the same headers and errors as
 * `request`, resolving the body as a Blob with the file name the server suggests.
 */
export async function requestFile<E extends TAnyEndpoint>(
  endpoint: E,
  options: TRequestOptions<E> = {},
): Promise<{ blob: Blob; filename: string | null }> {
  let response: Response;
  try {
    response = await sendWithRefresh(endpoint, options, '*/*');
    if (response.ok) {
      const disposition = response.headers.get('content-disposition') ?? '';
      return { blob: await response.blob(), filename: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null };
    }
  } catch (error) {
    if (options.signal?.aborted) throw error;
    console.error(`${endpoint.method} ${endpoint.path} failed`, error);
    throw ApiError.exception();
  }
  throw failureOf(response, await readJson(response).catch(() => null));
}
