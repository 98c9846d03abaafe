import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';
import { isAccountEmail } from './validation.ts';
import { CAMPAIGN_STATUSES } from './campaigns.ts';

/**
 * Templates and the block document the flex builder edits (specification sections 2 and 3,
 * DESIGN section 7). The document is data: the console edits it, the server alone renders it
 * (block document -> MJML -> HTML + a text part), for the preview and for sending alike.
 *
 * Error codes of this area (errors.ts; the console's errors.* catalogue needs each, English
 * verbatim): image_fetch_failed, template_stale, template_in_use (interpolates {{campaign}}, or
 * {{campaigns}} when several campaigns hold the template: ERROR_MESSAGES_MANY),
 * template_default_language_missing, template_read_only, test_send_failed; image uploads reuse logo_wrong_type,
 * logo_too_big and upload_failed (the same specification texts).
 *
 * Changes (kept compatible; newest first):
 * - template_in_use names every campaign that has not finished and uses the template:
 *   `error.params.campaigns` (a list, by name) beside `campaign` (the first), and the English message
 *   lists them ('"A", "B", "C" and 2 more') when there are several.
 * - the report lists only the campaigns the acting host may read, as the campaign list does (a
 *   hotel or group: a campaign of a host above with its own guests' figures only); each row has the
 *   campaign's own status and `paused`, and the report the acting host's `timeZone`.
 * - report rows' statistics are nullable (null until the campaigns module provides them).
 * - the template_in_use message names the campaign: `{{campaign}}` in the English text, and
 *   `error.params.campaign` for the console's own text; template_stale has `error.params.version`.
 */

export const TEMPLATE_DOCUMENT_VERSION = 1;
export const TEMPLATE_LANGUAGES = ['ja', 'en'] as const;
export type TTemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number];

/** Gmail clips a message past 102 KB; the preview warns a little before it. */
export const TEMPLATE_HTML_WARN_BYTES = 100 * 1024;
/** The same limit and types as a logo (specification section 8). */
export const TEMPLATE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const TEMPLATE_IMAGE_TYPES = ['.jpg', '.jpeg', '.png'] as const;
export const TEST_SEND_MAX_RECIPIENTS = 5;
/** The width mails are laid out for; the mobile preview is the same HTML in a 375 px frame. */
export const EMAIL_WIDTH = 600;
export const PREVIEW_WIDTHS = { desktop: 600, mobile: 375 } as const;

// ---------------------------------------------------------------------------------------------
// Small value types

/** `#rrggbb`, as Mantine's colour inputs give it. */
export const ZColor = z.string().regex(/^#[0-9a-fA-F]{6}$/);

/**
 * Where a link or button may lead: http(s), mailto: or tel:. Never javascript:, data: or a
 * relative path (a mail has no base address).
 */
export function isSafeHref(value: string): boolean {
  if (/^mailto:[^\s]+$/i.test(value) || /^tel:[+0-9()\-\s]+$/i.test(value)) return true;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
export const ZHref = z
  .string()
  .trim()
  .max(2000)
  .refine(isSafeHref, { message: 'Enter a link starting with https://, http://, mailto: or tel:' });
/**
 * A link not filled in yet: null, absent or empty (autosave keeps half-made blocks); the block then
 * renders without a link and the preview warns.
 */
export const ZOptionalHref = z.union([z.literal(''), ZHref]).nullish();

/** Images we keep are linked as `/files/logos/<sha256>.png|jpg` (content-addressed, like logos). */
export const STORED_IMAGE_PATTERN = /^\/files\/logos\/[a-f0-9]{64}\.(png|jpg)$/;
/** An image source: one we store (the usual), or an absolute http(s) address. */
export const ZImageSrc = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => STORED_IMAGE_PATTERN.test(v) || /^https?:\/\/[^\s]+$/i.test(v), {
    message: 'Upload an image or enter its URL.',
  });

// ---------------------------------------------------------------------------------------------
// Personal tags

/**
 * The personal tags a mail may carry. In rich text a tag is a `personalTag` node; in plain
 * strings (subject, pre-header, button and link labels, text) it is written `{{key}}` or
 * `{{key|fallback}}`. A value is HTML-escaped where it lands in HTML. The fallback (the tag's own
 * or the catalogue's default below) stands in when the guest has no value.
 *
 * `full_name` is the name in the guest's order (family name first for a Japanese name), followed
 * by 様 in the Japanese version: 山田 太郎 様 / Emily Carter.
 */
export const PERSONAL_TAG_KEYS = [
  'first_name',
  'last_name',
  'full_name',
  'email',
  'hotel_name',
  'brand_name',
  'check_in_date',
  'check_out_date',
  'room_name',
  'number_of_guests',
] as const;
export type TPersonalTagKey = (typeof PERSONAL_TAG_KEYS)[number];
export const ZPersonalTagKey = z.enum(PERSONAL_TAG_KEYS);

export interface TPersonalTagInfo {
  key: TPersonalTagKey;
  /** What the menu shows. */
  label: Record<TTemplateLanguage, string>;
  /** Used when neither the guest nor the tag has a value. */
  defaultFallback: Record<TTemplateLanguage, string>;
  /** An example value for the editor's chip tooltips. */
  example: Record<TTemplateLanguage, string>;
}

export const PERSONAL_TAGS: readonly TPersonalTagInfo[] = [
  {
    key: 'first_name',
    label: { ja: '名', en: 'First name' },
    defaultFallback: { ja: '', en: '' },
    example: { ja: '太郎', en: 'Emily' },
  },
  {
    key: 'last_name',
    label: { ja: '姓', en: 'Last name' },
    defaultFallback: { ja: '', en: '' },
    example: { ja: '山田', en: 'Carter' },
  },
  {
    key: 'full_name',
    label: { ja: '氏名（様付き）', en: 'Full name' },
    defaultFallback: { ja: 'お客様', en: 'Guest' },
    example: { ja: '山田 太郎 様', en: 'Emily Carter' },
  },
  {
    key: 'email',
    label: { ja: 'メールアドレス', en: 'Email address' },
    defaultFallback: { ja: '', en: '' },
    example: { ja: 'taro@example.jp', en: 'emily@example.com' },
  },
  {
    key: 'hotel_name',
    label: { ja: 'ホテル名', en: 'Hotel name' },
    defaultFallback: { ja: '', en: '' },
    example: { ja: '桜ホテル新宿', en: 'Sakura Hotel Shinjuku' },
  },
  {
    key: 'brand_name',
    label: { ja: 'ブランド名', en: 'Brand name' },
    defaultFallback: { ja: '', en: '' },
    example: { ja: '桜ホテルズ', en: 'Sakura Hotels' },
  },
  {
    key: 'check_in_date',
    label: { ja: 'チェックイン日', en: 'Check-in date' },
    defaultFallback: { ja: '', en: '' },
    example: { ja: '2026年12月24日', en: '24 Dec 2026' },
  },
  {
    key: 'check_out_date',
    label: { ja: 'チェックアウト日', en: 'Check-out date' },
    defaultFallback: { ja: '', en: '' },
    example: { ja: '2026年12月26日', en: '26 Dec 2026' },
  },
  {
    key: 'room_name',
    label: { ja: '部屋名', en: 'Room name' },
    defaultFallback: { ja: '', en: '' },
    example: { ja: 'デラックスツイン', en: 'Deluxe Twin' },
  },
  {
    key: 'number_of_guests',
    label: { ja: '宿泊人数', en: 'Number of guests' },
    defaultFallback: { ja: '', en: '' },
    example: { ja: '2', en: '2' },
  },
];

/** `{{key}}` or `{{key|fallback}}` in a plain string; the fallback holds no braces or bars. */
export const TAG_PATTERN = /\{\{\s*([a-z_]+)\s*(?:\|([^{}|]*))?\}\}/g;
export const tagText = (key: TPersonalTagKey, fallback?: string) =>
  fallback ? `{{${key}|${fallback}}}` : `{{${key}}}`;

// ---------------------------------------------------------------------------------------------
// Rich text: the subset of tiptap's JSON (editor.getJSON()) the renderer accepts. Attributes
// outside it (a link's target, rel, class) are dropped when parsed; unknown node or mark types are
// refused. The renderer writes the HTML itself from this structure: no HTML is stored for text.

export const TEXT_ALIGNS = ['left', 'center', 'right', 'justify'] as const;
/** Font sizes offered by the editor, in px. */
export const FONT_SIZES = [12, 14, 16, 18, 20, 24, 28, 32, 40, 48] as const;

export const ZTextMark = z.discriminatedUnion('type', [
  z.object({ type: z.literal('bold') }),
  z.object({ type: z.literal('italic') }),
  z.object({ type: z.literal('underline') }),
  z.object({ type: z.literal('link'), attrs: z.object({ href: ZHref }) }),
  z.object({
    type: z.literal('textStyle'),
    attrs: z.object({
      color: ZColor.nullish(),
      /** `16px` */
      fontSize: z
        .string()
        .regex(/^\d{1,2}px$/)
        .nullish(),
    }),
  }),
]);
export type TTextMark = z.infer<typeof ZTextMark>;

export const ZTextInline = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('text'),
    text: z.string().min(1).max(10_000),
    marks: z.array(ZTextMark).max(10).optional(),
  }),
  z.object({ type: z.literal('hardBreak'), marks: z.array(ZTextMark).max(10).optional() }),
  /** A personal tag chip; marks style it like the text around it. */
  z.object({
    type: z.literal('personalTag'),
    attrs: z.object({ key: ZPersonalTagKey, fallback: z.string().max(200).nullish() }),
    marks: z.array(ZTextMark).max(10).optional(),
  }),
]);
export type TTextInline = z.infer<typeof ZTextInline>;

const ZAlignAttrs = z.object({ textAlign: z.enum(TEXT_ALIGNS).nullish() });

export const ZParagraph = z.object({
  type: z.literal('paragraph'),
  attrs: ZAlignAttrs.optional(),
  content: z.array(ZTextInline).max(2000).optional(),
});
export const ZHeading = z.object({
  type: z.literal('heading'),
  attrs: ZAlignAttrs.extend({ level: z.union([z.literal(1), z.literal(2), z.literal(3)]) }),
  content: z.array(ZTextInline).max(2000).optional(),
});
export type TParagraph = z.infer<typeof ZParagraph>;
export type THeading = z.infer<typeof ZHeading>;

/** Lists nest (a list item holds paragraphs and further lists), as tiptap's starter kit does. */
export type TListItem = { type: 'listItem'; content: (TParagraph | TList)[] };
export type TList = {
  type: 'bulletList' | 'orderedList';
  attrs?: { start?: number | null } | undefined;
  content: TListItem[];
};
export const ZListItem: z.ZodType<TListItem> = z
  .lazy(
    () =>
      z.object({
        type: z.literal('listItem'),
        content: z
          .array(z.union([ZParagraph, ZList]))
          .min(1)
          .max(100),
      }),
    // Named, so the OpenAPI document can refer to the recursive schema as a component.
  )
  .meta({ id: 'TemplateRichTextListItem' });
export const ZList: z.ZodType<TList> = z
  .lazy(() =>
    z.object({
      type: z.enum(['bulletList', 'orderedList']),
      attrs: z.object({ start: z.number().int().min(0).max(10_000).nullish() }).optional(),
      content: z.array(ZListItem).min(1).max(200),
    }),
  )
  .meta({ id: 'TemplateRichTextList' });

export const ZRichTextNode = z.union([ZParagraph, ZHeading, ZList]);
export type TRichTextNode = TParagraph | THeading | TList;
export const ZRichText = z.object({ type: z.literal('doc'), content: z.array(ZRichTextNode).max(500) });
export type TRichText = { type: 'doc'; content: TRichTextNode[] };

// ---------------------------------------------------------------------------------------------
// Blocks

export const DIVIDER_THICKNESSES = ['thin', 'regular', 'thick'] as const;
/** Border widths in px of the three thicknesses. */
export const DIVIDER_WIDTH_PX = { thin: 1, regular: 2, thick: 4 } as const;
export const BLOCK_ALIGNS = ['left', 'center', 'right'] as const;

/** Every block has an id the editor gives it (unique in its document), for selection and moves. */
const ZBlockId = z.string().min(1).max(64);
/** Space above and below a block, in px. */
const ZPadding = z.number().int().min(0).max(80);

export const ZTextBlock = z.object({
  id: ZBlockId,
  type: z.literal('text'),
  content: ZRichText,
  padding: ZPadding.default(10),
});
export const ZDividerBlock = z.object({
  id: ZBlockId,
  type: z.literal('divider'),
  thickness: z.enum(DIVIDER_THICKNESSES).default('regular'),
  color: ZColor.default('#d9d9d9'),
  padding: ZPadding.default(10),
});
export const ZImageBlock = z.object({
  id: ZBlockId,
  type: z.literal('image'),
  /** Null (or empty) while the block is still empty in the editor; an empty image renders nothing. */
  src: z.union([z.literal(''), ZImageSrc]).nullish(),
  alt: z.string().trim().max(300).default(''),
  /** Where a click on the image leads, if anywhere. */
  href: ZOptionalHref,
  /** Percentage of the column's width. */
  width: z.number().int().min(10).max(100).default(100),
  align: z.enum(BLOCK_ALIGNS).default('center'),
  padding: ZPadding.default(10),
});
export const ZButtonBlock = z.object({
  id: ZBlockId,
  type: z.literal('button'),
  /** May hold `{{tag}}`s. An empty label renders no button. */
  label: z.string().trim().max(200).default(''),
  href: ZOptionalHref,
  backgroundColor: ZColor.default('#1c7ed6'),
  textColor: ZColor.default('#ffffff'),
  align: z.enum(BLOCK_ALIGNS).default('center'),
  fullWidth: z.boolean().default(false),
  padding: ZPadding.default(10),
});
/** Raw HTML, sanitised when rendered (no scripts, event handlers, javascript: links or forms). */
export const ZCodeBlock = z.object({
  id: ZBlockId,
  type: z.literal('code'),
  html: z.string().max(50_000),
  padding: ZPadding.default(10),
});
/** A line of linked text. */
export const ZLinkBlock = z.object({
  id: ZBlockId,
  type: z.literal('link'),
  /** May hold `{{tag}}`s. An empty label renders nothing. */
  label: z.string().trim().max(300).default(''),
  href: ZOptionalHref,
  color: ZColor.default('#1c7ed6'),
  fontSize: z.number().int().min(10).max(48).default(16),
  align: z.enum(BLOCK_ALIGNS).default('left'),
  padding: ZPadding.default(10),
});

export const ZBlock = z.discriminatedUnion('type', [
  ZTextBlock,
  ZDividerBlock,
  ZImageBlock,
  ZButtonBlock,
  ZCodeBlock,
  ZLinkBlock,
]);
export type TBlock = z.infer<typeof ZBlock>;
export type TBlockType = TBlock['type'];
export type TTextBlock = z.infer<typeof ZTextBlock>;
export type TDividerBlock = z.infer<typeof ZDividerBlock>;
export type TImageBlock = z.infer<typeof ZImageBlock>;
export type TButtonBlock = z.infer<typeof ZButtonBlock>;
export type TCodeBlock = z.infer<typeof ZCodeBlock>;
export type TLinkBlock = z.infer<typeof ZLinkBlock>;

/**
 * The builder's palette, in the specification's order. `template` is not a stored block: the
 * editor resolves it on insert, copying a saved template's sections (of the language being edited,
 * else its default) into the document with fresh ids.
 */
export const PALETTE_ITEMS = ['template', 'text', 'divider', 'image', 'button', 'code', 'link'] as const;
export type TPaletteItem = (typeof PALETTE_ITEMS)[number];

// ---------------------------------------------------------------------------------------------
// Sections and the document

export const ZColumn = z.object({ id: ZBlockId, blocks: z.array(ZBlock).max(100) });
export type TColumn = z.infer<typeof ZColumn>;

/** A row of 1 to 3 equal columns; on a phone the columns stack. */
export const ZSection = z.object({
  id: ZBlockId,
  columns: z.array(ZColumn).min(1).max(3),
  backgroundColor: ZColor.nullish(),
  /** Space above and below the section, in px. */
  paddingTop: z.number().int().min(0).max(120).default(10),
  paddingBottom: z.number().int().min(0).max(120).default(10),
});
export type TSection = z.infer<typeof ZSection>;

export const ZBlockDocument = z.object({
  version: z.literal(TEMPLATE_DOCUMENT_VERSION),
  /** Behind the mail (the client's window). */
  backgroundColor: ZColor.default('#f4f4f4'),
  /** The 600 px body of the mail. */
  contentBackgroundColor: ZColor.default('#ffffff'),
  textColor: ZColor.default('#222222'),
  /** Body font size in px. */
  fontSize: z.number().int().min(10).max(32).default(16),
  sections: z.array(ZSection).max(100),
});
export type TBlockDocument = z.infer<typeof ZBlockDocument>;
export type TBlockDocumentInput = z.input<typeof ZBlockDocument>;

export const emptyDocument = (): TBlockDocument => ({
  version: TEMPLATE_DOCUMENT_VERSION,
  backgroundColor: '#f4f4f4',
  contentBackgroundColor: '#ffffff',
  textColor: '#222222',
  fontSize: 16,
  sections: [],
});

/** One language's version of a template: what a guest of that language receives. */
export const ZTemplateContent = z.object({
  /** May hold `{{tag}}`s. Empty while being written; a send needs one. */
  subject: z.string().trim().max(300).default(''),
  /** The preview line inboxes show after the subject; may hold `{{tag}}`s. */
  preheader: z.string().trim().max(300).default(''),
  document: ZBlockDocument,
});
export type TTemplateContent = z.infer<typeof ZTemplateContent>;

/**
 * A Japanese and/or an English version; the default language's version must be there. A guest
 * receives the version of their language, else the default one.
 */
export const ZTemplateContents = z.object({ ja: ZTemplateContent.nullish(), en: ZTemplateContent.nullish() });
export type TTemplateContents = z.infer<typeof ZTemplateContents>;

// ---------------------------------------------------------------------------------------------
// Templates

export const ZTemplateOwner = z.object({
  hostId: z.string(),
  level: z.enum(['brand', 'hotel_group', 'hotel']),
  name: z.string(),
});

export const ZTemplateSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** An uploaded cover, or null: the console then shows the rendered template itself, scaled down. */
  coverImageUrl: z.string().nullable(),
  defaultLanguage: z.enum(TEMPLATE_LANGUAGES),
  languages: z.array(z.enum(TEMPLATE_LANGUAGES)),
  owner: ZTemplateOwner,
  /** False for a brand's template seen from its hotel groups and hotels: usable, read-only. */
  editable: z.boolean(),
  /** Rises by one with every saved change. */
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  updatedByName: z.string().nullable(),
});
export type TTemplateSummary = z.infer<typeof ZTemplateSummary>;

export const ZTemplate = ZTemplateSummary.extend({ contents: ZTemplateContents });
export type TTemplate = z.infer<typeof ZTemplate>;

export const TEMPLATE_SORTS = ['-updated_at', 'updated_at', 'name', '-name'] as const;
export const ZTemplateListQuery = z.object({
  search: z.string().trim().max(200).optional(),
  sort: z.enum(TEMPLATE_SORTS).default('-updated_at'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
/** A template as the list shows it: with its owner's time zone, the zone its times are shown in (as a campaign's). */
export const ZTemplateListItem = ZTemplateSummary.extend({ timeZone: z.string() });
export type TTemplateListItem = z.infer<typeof ZTemplateListItem>;

export const ZTemplatePage = z.object({
  items: z.array(ZTemplateListItem),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

export const ZTemplateName = z.string().trim().min(1).max(200);

/** A new template: without contents it starts as an empty version in its default language. */
export const ZCreateTemplate = z.object({
  name: ZTemplateName,
  description: z.string().trim().max(1000).default(''),
  defaultLanguage: z.enum(TEMPLATE_LANGUAGES).default('ja'),
  contents: ZTemplateContents.optional(),
  coverImageUrl: ZImageSrc.nullish(),
});

/**
 * Autosave: send what changed with the version the editor last saw. A version that is no longer
 * the stored one is refused (409 template_stale, with the stored version in `error.params.version`),
 * so a second tab never overwrites newer work silently. `contents` replaces both languages
 * (a null language removes that version).
 */
export const ZUpdateTemplate = z.object({
  version: z.number().int().min(1),
  name: ZTemplateName.optional(),
  description: z.string().trim().max(1000).optional(),
  defaultLanguage: z.enum(TEMPLATE_LANGUAGES).optional(),
  contents: ZTemplateContents.optional(),
  coverImageUrl: ZImageSrc.nullish(),
});

export const ZDuplicateTemplate = z.object({
  name: ZTemplateName.optional(),
  /** The console's language, for the default name "<name> (copy)": a user may read it in another than their profile's. */
  language: z.enum(['ja', 'en']).optional(),
});

export const ZTemplateImage = z.object({
  url: z.string(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  bytes: z.number(),
});
export const ZImageFromUrl = z.object({ url: z.string().trim().min(1).max(2000) });

/**
 * html_too_large: past TEMPLATE_HTML_WARN_BYTES (Gmail clips at 102 KB); image_missing_alt: an
 * image without alt text; image_missing: an image block with no image yet; link_missing: a button
 * or link without an address; button_label_missing, link_label_missing: a button or link without
 * a label, left out of the mail; subject_missing: no subject for this language; language_missing: the
 * language asked for has no version, the default one was rendered.
 */
export const PREVIEW_WARNINGS = [
  'html_too_large',
  'image_missing_alt',
  'image_missing',
  'link_missing',
  'button_label_missing',
  'link_label_missing',
  'subject_missing',
  'language_missing',
] as const;
export const ZPreviewWarning = z.object({
  code: z.enum(PREVIEW_WARNINGS),
  /** The block concerned (image_*, link_missing, *_label_missing). */
  blockId: z.string().optional(),
});
export type TPreviewWarning = z.infer<typeof ZPreviewWarning>;

/**
 * Preview the saved template, or `contents` not yet saved, in one language, personalised with a
 * customer's data when `customerId` is given (else the tags' fallbacks). Desktop and mobile are
 * the same HTML in frames of PREVIEW_WIDTHS.
 */
export const ZPreviewRequest = z.object({
  language: z.enum(TEMPLATE_LANGUAGES),
  customerId: z.uuid().optional(),
  contents: ZTemplateContent.optional(),
});
export const ZPreview = z.object({
  /** The language rendered: the one asked for, else the template's default. */
  language: z.enum(TEMPLATE_LANGUAGES),
  subject: z.string(),
  preheader: z.string(),
  html: z.string(),
  text: z.string(),
  /** Size of the HTML in bytes (UTF-8), as it is sent. */
  htmlBytes: z.number(),
  warnings: z.array(ZPreviewWarning),
});
export type TPreview = z.infer<typeof ZPreview>;

export const ZTestSend = z.object({
  emails: z
    .array(z.string().trim().max(254).refine(isAccountEmail, { message: 'Oops! Invalid email address.' }))
    .min(1)
    .max(TEST_SEND_MAX_RECIPIENTS),
  language: z.enum(TEMPLATE_LANGUAGES),
  customerId: z.uuid().optional(),
});

/**
 * A campaign that used the template, as the acting host may read it on the campaign list: its own
 * status, and for a campaign of a host above that reached the acting hotel's (or group's) guests,
 * the audience and figures of those guests only.
 */
export const ZTemplateReportRow = z.object({
  campaignId: z.string(),
  campaignName: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  paused: z.boolean(),
  /** When the send started (finished, once it has): null until it starts. */
  sentAt: z.string().nullable(),
  /** Null until the send starts. */
  recipients: z.number().nullable(),
  delivered: z.number().nullable(),
  opened: z.number().nullable(),
  clicked: z.number().nullable(),
});
/** `timeZone`: the acting host's, in which the console shows the times (and names it). */
export const ZTemplateReport = z.object({ campaigns: z.array(ZTemplateReportRow), timeZone: z.string() });
export type TTemplateReport = z.infer<typeof ZTemplateReport>;

const base = '/v1/templates';
const byId = `${base}/:id`;
const ZId = z.object({ id: z.string() });

export const list = defineEndpoint({
  method: 'GET',
  path: base,
  summary: "List the templates the acting host can use: its own and, below a brand, the brand's (read-only)",
  query: ZTemplateListQuery,
  response: envelope(ZTemplatePage),
});
export const create = defineEndpoint({
  method: 'POST',
  path: base,
  summary: 'Create a template',
  body: ZCreateTemplate,
  response: envelope(ZTemplate),
});
export const get = defineEndpoint({
  method: 'GET',
  path: byId,
  summary: 'One template with its language versions',
  response: envelope(ZTemplate),
});
export const update = defineEndpoint({
  method: 'PATCH',
  path: byId,
  summary: 'Save changes to a template (autosave); refused with 409 when the version is stale',
  body: ZUpdateTemplate,
  response: envelope(ZTemplate),
});
export const duplicate = defineEndpoint({
  method: 'POST',
  path: `${byId}/duplicate`,
  summary:
    'Copy a template (a brand template copied below the brand becomes the acting host\'s own); the name defaults to "<name> (copy)" in `language` (else the user\'s language): "<name>（コピー）" in Japanese',
  body: ZDuplicateTemplate,
  response: envelope(ZTemplate),
});
export const remove = defineEndpoint({
  method: 'DELETE',
  path: byId,
  summary:
    'Delete a template; refused (409 template_in_use, naming the campaigns in `error.params.campaigns`) while a campaign that has not finished (scheduled, sending or paused) uses it',
  response: envelope(ZId),
});
export const uploadImage = defineEndpoint({
  method: 'POST',
  path: `${base}/images`,
  summary: 'Upload an image for a template (multipart field "file"; .jpg or .png by content, under 5MB)',
  response: envelope(ZTemplateImage),
});
export const imageFromUrl = defineEndpoint({
  method: 'POST',
  path: `${base}/images/from-url`,
  summary: 'Fetch an image from a public http(s) address and keep a copy (.jpg or .png, under 5MB)',
  body: ZImageFromUrl,
  response: envelope(ZTemplateImage),
});
export const preview = defineEndpoint({
  method: 'POST',
  path: `${byId}/preview`,
  summary: "The server's rendering of a template in one language, as it is sent, with warnings",
  body: ZPreviewRequest,
  response: envelope(ZPreview),
});
export const testSend = defineEndpoint({
  method: 'POST',
  path: `${byId}/test-send`,
  summary: 'Send the template to up to 5 addresses through SMTP, subject marked as a test',
  body: ZTestSend,
  response: envelope(z.object({ sent: z.number() })),
});
export const report = defineEndpoint({
  method: 'GET',
  path: `${byId}/report`,
  summary:
    "The campaigns that used the template and their statistics, as the acting host reads them on the campaign list (a campaign of a host above with its own guests' figures only)",
  response: envelope(ZTemplateReport),
});
