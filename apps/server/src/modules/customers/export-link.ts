import { customersApi } from '@yado/contracts';
import type { FastifyRequest } from 'fastify';
import { downloadLinks } from '../../http/download-link.ts';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import type { TCustomerFilter } from './queries.ts';

/** Download links for the customer CSV export: the list filters, sealed (http/download-link.ts). */
export const EXPORT_COOKIE = 'yado_export';
export const EXPORT_PATH = '/v1/customers/export-downloads';

export const customerExportLinks = downloadLinks({
  purpose: 'customer-export-link',
  path: EXPORT_PATH,
  cookie: EXPORT_COOKIE,
  fields: { filter: customersApi.ZCustomerFilter },
});

export function createExportLink(
  rt: TRuntime,
  ctx: TActingContext,
  input: TCustomerFilter & { lang?: 'ja' | 'en' },
  nonce: string,
  now = Date.now(),
): { url: string; expiresAt: string } {
  const { lang, ...filter } = input;
  return customerExportLinks.create(rt, ctx, { filter }, lang, nonce, now);
}

/** Opens a link from this browser: its acting context as of now, its filters and language. */
export async function openExportLink(
  rt: TRuntime,
  token: string,
  request: FastifyRequest,
  now = Date.now(),
): Promise<{ ctx: TActingContext; filter: TCustomerFilter; lang: 'ja' | 'en' }> {
  const { ctx, fields, lang } = await customerExportLinks.open(rt, token, request, now);
  if (!ctx.entitlements['customer.export_csv']) throw new AppError(403, 'forbidden');
  return { ctx, filter: fields.filter, lang };
}
