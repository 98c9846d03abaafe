/**
 * Page cursors are opaque to clients but carry the whole query: the resource, the
 * `updated_since` filter, the snapshot instant `as_of` and the keyset position (updated_at, id)
 * of the last item served. A client only ever sends the cursor back as it got it.
 */
export type TResourceKind = 'guests' | 'reservations';

export interface TCursor {
  kind: TResourceKind;
  since: number | null;
  asOf: number;
  afterAt: number;
  afterId: string;
}

export function encodeCursor(cursor: TCursor): string {
  const wire = { k: cursor.kind, s: cursor.since, a: cursor.asOf, t: cursor.afterAt, i: cursor.afterId };
  return Buffer.from(JSON.stringify(wire), 'utf8').toString('base64url');
}

/** The cursor, or null when the text is not one this simulator issued for `kind`. */
export function decodeCursor(text: string, kind: TResourceKind): TCursor | null {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(text)) return null;
  let wire: unknown;
  try {
    wire = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    // Not JSON inside: a cursor that was truncated or made up. The caller answers 400.
    return null;
  }
  if (typeof wire !== 'object' || wire === null) return null;
  const { k, s, a, t, i } = wire as Record<string, unknown>;
  if (k !== kind) return null;
  if (s !== null && !Number.isSafeInteger(s)) return null;
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(t) || typeof i !== 'string' || i.length === 0) return null;
  return { kind, since: s as number | null, asOf: a as number, afterAt: t as number, afterId: i };
}
