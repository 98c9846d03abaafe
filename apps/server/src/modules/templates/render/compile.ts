import {
  PERSONAL_TAGS,
  TEMPLATE_HTML_WARN_BYTES,
  type TPersonalTagKey,
  type TPreviewWarning,
  type TTemplateContent,
  type TTemplateLanguage,
} from '@yado/contracts';
import { convert } from 'html-to-text';
import { documentToMjml } from './document-mjml.ts';
import { loadSanitizer } from './sanitize-html.ts';
import { SLOT_PATTERN, SlotTable, type TSlot } from './slots.ts';

/**
 * A template version rendered once: HTML (through MJML), a text part and the subject, each split
 * at its personal tags into static parts and slots. Personalising a mail is then a join of strings
 * (`personalise`), not a new rendering, so a campaign pays for MJML once, not per recipient.
 */
export interface TCompiledPart {
  /** `statics.length === slots.length + 1`: static, slot, static, ..., static. */
  statics: string[];
  /** Indexes into TCompiledMessage.tags. */
  slots: number[];
}

export interface TCompiledMessage {
  language: TTemplateLanguage;
  tags: TSlot[];
  subject: TCompiledPart;
  html: TCompiledPart;
  text: TCompiledPart;
  /** The HTML's size in bytes with every tag empty: what the 100 KB warning measures. */
  htmlBytes: number;
  warnings: TPreviewWarning[];
}

/** A guest's values by tag; null or empty: the tag's fallback is used. */
export type TPersonalValues = Partial<Record<TPersonalTagKey, string | null>>;

export interface TPersonalisedMessage {
  subject: string;
  html: string;
  text: string;
}

const DEFAULT_FALLBACKS = new Map(PERSONAL_TAGS.map((t) => [t.key, t.defaultFallback]));

/** MJML takes seconds to load on this machine: loaded at the first rendering, not at import. */
let mjmlModule: Promise<typeof import('mjml')> | null = null;

export async function compileMessage(
  content: TTemplateContent,
  language: TTemplateLanguage,
  imageUrl: (src: string) => string,
): Promise<TCompiledMessage> {
  const [{ default: mjml2html }] = await Promise.all([(mjmlModule ??= import('mjml')), loadSanitizer()]);
  const slots = new SlotTable();
  const subject = slots.withTags(content.subject, (s) => s);
  const { mjml, warnings } = documentToMjml(content.document, slots, {
    language,
    preheader: content.preheader,
    imageUrl,
  });
  // Strict: a document the renderer turned into invalid MJML is our bug, and must not be sent.
  const { html } = await mjml2html(mjml, { validationLevel: 'strict', keepComments: false });
  const text = convert(html, TEXT_OPTIONS);
  const compiledHtml = split(html);
  const htmlBytes = compiledHtml.statics.reduce((n, s) => n + Buffer.byteLength(s), 0);
  if (htmlBytes > TEMPLATE_HTML_WARN_BYTES) warnings.unshift({ code: 'html_too_large' });
  if (!content.subject) warnings.unshift({ code: 'subject_missing' });
  return {
    language,
    tags: slots.slots,
    subject: split(subject),
    html: compiledHtml,
    text: split(text),
    htmlBytes,
    warnings,
  };
}

/** The text part: the mail's words and links, without the hidden pre-header or image addresses. */
const TEXT_OPTIONS = {
  wordwrap: 100,
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, ignoreHref: false } },
    { selector: 'div[style*="display:none"]', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'table', format: 'block' },
    { selector: 'tr', format: 'block' },
    { selector: 'td', format: 'block' },
  ],
};

function split(rendered: string): TCompiledPart {
  const statics: string[] = [];
  const slots: number[] = [];
  let last = 0;
  for (const m of rendered.matchAll(SLOT_PATTERN)) {
    statics.push(rendered.slice(last, m.index));
    slots.push(Number(m[1]));
    last = (m.index as number) + m[0].length;
  }
  statics.push(rendered.slice(last));
  return { statics, slots };
}

const ESCAPE = /[&<>"']/;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeChar = (c: string) => ESCAPES[c] as string;

/**
 * One guest's mail from a compiled template: each tag's value (or its fallback), HTML-escaped in
 * the HTML part, plain in the subject and text. The function the campaign send calls per recipient.
 */
export function personalise(compiled: TCompiledMessage, values: TPersonalValues): TPersonalisedMessage {
  const tags = compiled.tags;
  const raw = new Array<string>(tags.length);
  const escaped = new Array<string>(tags.length);
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i] as TSlot;
    const value = values[tag.key];
    const chosen = value ? value : (tag.fallback ?? DEFAULT_FALLBACKS.get(tag.key)?.[compiled.language] ?? '');
    raw[i] = chosen;
    escaped[i] = ESCAPE.test(chosen) ? chosen.replace(/[&<>"']/g, escapeChar) : chosen;
  }
  return {
    subject: join(compiled.subject, raw).replace(/[\r\n]+/g, ' '),
    html: join(compiled.html, escaped),
    text: join(compiled.text, raw),
  };
}

function join(part: TCompiledPart, values: string[]): string {
  const { statics, slots } = part;
  let out = statics[0] as string;
  for (let i = 0; i < slots.length; i++) out += (values[slots[i] as number] as string) + (statics[i + 1] as string);
  return out;
}
