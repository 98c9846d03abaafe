import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { TEMPLATE_IMAGE_MAX_BYTES } from '@yado/contracts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import type { TLogoStore } from '../uploads/logo-store.ts';
import { storeLogo } from '../uploads/store-logo.ts';
import { fetchPublicImage, type TFetchImageOptions } from './fetch-image.ts';
import { imageSize } from './image-size.ts';

/**
 * Images of templates are kept as logos are (modules/uploads): named by their content hash,
 * immutable, .jpg or .png by their bytes, under 5MB; mails link them by absolute address.
 */
export interface TStoredImage {
  url: string;
  width: number | null;
  height: number | null;
  bytes: number;
}

async function keep(rt: TRuntime, store: TLogoStore, bytes: Buffer, truncated: boolean): Promise<TStoredImage> {
  const { logoUrl } = await storeLogo(store, bytes, truncated, rt.log);
  const size = imageSize(bytes);
  return { url: logoUrl, width: size?.width ?? null, height: size?.height ?? null, bytes: bytes.length };
}

export async function uploadTemplateImage(
  rt: TRuntime,
  store: TLogoStore,
  request: FastifyRequest,
): Promise<TStoredImage> {
  if (!request.isMultipart()) throw new AppError(400, 'logo_wrong_type', { file: fieldError('logo_wrong_type') });
  let file: MultipartFile | undefined;
  try {
    file = await request.file({ limits: { fileSize: TEMPLATE_IMAGE_MAX_BYTES, files: 1 } });
  } catch {
    throw new AppError(400, 'upload_failed', { file: fieldError('upload_failed') });
  }
  if (!file) throw new AppError(400, 'logo_wrong_type', { file: fieldError('logo_wrong_type') });
  const bytes = await file.toBuffer().catch((error: { code?: string }) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(413, 'logo_too_big', { file: fieldError('logo_too_big') });
    throw new AppError(400, 'upload_failed', { file: fieldError('upload_failed') });
  });
  return keep(rt, store, bytes, file.file.truncated);
}

/** An image by address: fetched by the server (public http(s) only, see fetch-image.ts) and kept. */
export async function imageFromUrl(
  rt: TRuntime,
  store: TLogoStore,
  url: string,
  options?: TFetchImageOptions,
): Promise<TStoredImage> {
  const fetched = await fetchPublicImage(url, options);
  return keep(rt, store, fetched.bytes, fetched.truncated);
}
