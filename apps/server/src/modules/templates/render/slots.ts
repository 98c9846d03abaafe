import { PERSONAL_TAG_KEYS, type TPersonalTagKey } from '@yado/contracts';

/**
 * Personal tags become slots while a template is rendered: each is written as a marker of two
 * private-use characters around its number, which MJML and html-to-text carry through untouched.
 * After rendering, the output is split at the markers once (see compile.ts). User text never holds
 * a marker: `plain` strips the two characters first.
 */
export const SLOT_OPEN = '\uE000';
export const SLOT_CLOSE = '\uE001';
export const SLOT_PATTERN = /\uE000(\d+)\uE001/g;

export interface TSlot {
  key: TPersonalTagKey;
  /** The tag's own fallback; null: the catalogue's default for the language. */
  fallback: string | null;
}

const KEYS = new Set<string>(PERSONAL_TAG_KEYS);
const TAG = /\{\{\s*([a-z_]+)\s*(?:\|([^{}|]*))?\}\}/g;

/** The slots of one rendering: the same tag with the same fallback is one slot. */
export class SlotTable {
  readonly slots: TSlot[] = [];
  private readonly index = new Map<string, number>();

  marker(key: TPersonalTagKey, fallback: string | null | undefined): string {
    const fb = fallback ? plain(fallback).trim() || null : null;
    const id = `${key}\u0000${fb ?? ''}`;
    let n = this.index.get(id);
    if (n === undefined) {
      n = this.slots.length;
      this.slots.push({ key, fallback: fb });
      this.index.set(id, n);
    }
    return `${SLOT_OPEN}${n}${SLOT_CLOSE}`;
  }

  /**
   * A user's string with its `{{key}}` / `{{key|fallback}}` tags as markers and the rest passed
   * through `escape` (HTML-escaping for HTML, nothing for the subject). Unknown keys stay as typed.
   */
  withTags(value: string, escape: (s: string) => string): string {
    const text = plain(value);
    let out = '';
    let last = 0;
    for (const m of text.matchAll(TAG)) {
      const key = m[1] as string;
      if (!KEYS.has(key)) continue;
      out += escape(text.slice(last, m.index)) + this.marker(key as TPersonalTagKey, m[2] ?? null);
      last = (m.index as number) + m[0].length;
    }
    return out + escape(text.slice(last));
  }
}

/** Removes the marker characters from what a user typed. */
export const plain = (value: string): string => value.replace(/[\uE000\uE001]/g, '');

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const NEEDS_ESCAPE = /[&<>"']/;
/** Safe in HTML text and in quoted attribute values. */
export const escapeHtml = (value: string): string =>
  NEEDS_ESCAPE.test(value) ? value.replace(/[&<>"']/g, (c) => ESCAPES[c] as string) : value;
