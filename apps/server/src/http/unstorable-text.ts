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

/** A value met on the walk: its parent's entry and its key there, to spell out its place if need be. */
interface TStep {
  item: unknown;
  parent: TStep | null;
  key: string;
}

const placeOf = (step: TStep, root: string): string => {
  const keys: string[] = [];
  for (let s: TStep | null = step; s?.parent; s = s.parent) keys.push(s.key);
  if (root) keys.push(root);
  return keys.reverse().join('.');
};

/**
 * Whether `value` holds such a text anywhere, keys included: the walk every request of every route
 * takes (almost none holds one), so it allocates nothing but its stack of objects and arrays. A
 * relay's webhooks come a thousand a second.
 */
function holdsUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return isUnstorableText(value);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (isUnstorableText(item)) return true;
    } else if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
    } else if (item !== null && typeof item === 'object') {
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue;
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
 * each value carries its parent and key, and a place is spelled out only for the text found: the
 * walk that finds one at all (holdsUnstorableText) keeps neither.
 */
export function unstorableTextPath(value: unknown, root = ''): string | null {
  if (!holdsUnstorableText(value)) return null;
  const stack: TStep[] = [{ item: value, parent: null, key: '' }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { item } = step;
    if (typeof item === 'string') {
      if (isUnstorableText(item)) return placeOf(step, root) || 'body';
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ item: item[i], parent: step, key: String(i) });
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item).reverse()) {
        if (isUnstorableText(key)) return placeOf({ item: child, parent: step, key }, root);
        stack.push({ item: child, parent: step, key });
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
