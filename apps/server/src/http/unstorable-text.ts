import type { FastifyInstance } from 'fastify';
import { AppError, fieldError } from './errors.ts';

/**
 * A NUL character, or half of a surrogate pair without its other half (JSON may escape either:
 * "\u0000", "\ud800"). PostgreSQL keeps neither in text or jsonb: NUL fails the statement, a lone
 * surrogate is silently stored as U+FFFD.
 */
// eslint-disable-next-line no-control-regex -- NUL is the character looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isUnstorableText = (value: string): boolean => UNSTORABLE.test(value);

/** Whether `value` holds such a text anywhere, keys included: the walk below without its places. */
function holdsUnstorableText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (isUnstorableText(item)) return true;
    } else if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
    } else if (item !== null && typeof item === 'object') {
      for (const key of Object.keys(item)) {
        if (isUnstorableText(key)) return true;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * The place (`contents.ja.subject`, `search`) of the first text in `value` that PostgreSQL cannot
 * keep, keys included, or null. Walked with a stack, so a deeply nested body cannot overflow it;
 * the places are spelled out only once such a text is known to be there (every request of every
 * route is walked, and almost none holds one).
 */
export function unstorableTextPath(value: unknown, root = ''): string | null {
  if (!holdsUnstorableText(value)) return null;
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (isUnstorableText(item)) return path || 'body';
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], path ? `${path}.${i}` : String(i)]);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item).reverse()) {
        const place = path ? `${path}.${key}` : key;
        if (isUnstorableText(key)) return place;
        stack.push([child, place]);
      }
    }
  }
  return null;
}

/**
 * Every route, in one place: a body, query or path parameter holding such a text is refused with
 * 400 `unstorable_text` naming its place, before the route's own validation and before it can
 * reach the database (where it made a 500). Runs after the access check (onRequest), so a caller
 * without access learns nothing from it.
 */
export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const place =
      unstorableTextPath(request.params) ?? unstorableTextPath(request.query) ?? unstorableTextPath(request.body);
    if (place !== null) throw new AppError(400, 'unstorable_text', { [place]: fieldError('unstorable_text') });
  });
}
