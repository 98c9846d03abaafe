import { AppError } from './errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID names nothing: 404, not a database error. */
export function uuid(id: string | undefined): string {
  if (!id || !UUID.test(id)) throw new AppError(404, 'not_found');
  return id;
}
