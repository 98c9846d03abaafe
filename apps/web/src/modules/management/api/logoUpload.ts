import * as managementApi from '@yado/contracts/management';
import { LOGO_MAX_BYTES } from '@yado/contracts/management';
import { request } from '../../../lib/http/request';

const LOGO_TYPES = ['image/jpeg', 'image/png'];

/**
 * The catalogue key of what is wrong with a chosen logo before it is sent, or null. The server
 * checks the content again; this only spares the user an upload that cannot succeed.
 */
export function logoFileProblem(file: File): string | null {
  if (file.type !== '' && !LOGO_TYPES.includes(file.type)) return 'errors.logo_wrong_type';
  if (file.size >= LOGO_MAX_BYTES) return 'errors.logo_too_big';
  return null;
}

export async function uploadLogo(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const { logoUrl } = await request(managementApi.uploadLogo, { body: form });
  return logoUrl;
}
