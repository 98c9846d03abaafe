import { isSafeHref, type TRichText } from '@yado/contracts/templates';
import { Mark, mergeAttributes, Node, type Extensions } from '@tiptap/react';
import TextAlign from '@tiptap/extension-text-align';
import { Color, FontSize, TextStyle } from '@tiptap/extension-text-style';

const COLOR = /^#[0-9a-fA-F]{6}$/;
const FONT_SIZE = /^\d{1,2}px$/;

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    personalTag: {
      /** Inserts a personal tag chip at the cursor. */
      insertPersonalTag: (key: string, fallback: string | null) => ReturnType;
    };
  }
}

/**
 * A personal tag in rich text: an inline chip the server fills with the guest's value (HTML-escaped)
 * or the fallback. `label` names it in the editor's language.
 */
export const PersonalTag = Node.create<{ label: (key: string) => string }>({
  name: 'personalTag',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addOptions() {
    return { label: (key: string) => key };
  },
  addAttributes() {
    return {
      key: { default: null, parseHTML: (element) => element.getAttribute('data-personal-tag') },
      fallback: { default: null, parseHTML: (element) => element.getAttribute('data-fallback') },
    };
  },
  parseHTML() {
    return [{ tag: 'span[data-personal-tag]' }];
  },
  renderHTML({ node, HTMLAttributes }) {
    const key = String(node.attrs.key);
    const fallback = node.attrs.fallback ? ` | ${String(node.attrs.fallback)}` : '';
    return [
      'span',
      mergeAttributes(HTMLAttributes, {
        'data-personal-tag': key,
        'data-fallback': node.attrs.fallback ?? undefined,
        class: 'yado-personal-tag',
        contenteditable: 'false',
      }),
      `${this.options.label(key)}${fallback}`,
    ];
  },
  renderText({ node }) {
    return `{{${String(node.attrs.key)}}}`;
  },
  addCommands() {
    return {
      insertPersonalTag:
        (key, fallback) =>
        ({ commands }) =>
          commands.insertContent({ type: this.name, attrs: { key, fallback: fallback || null } }),
    };
  },
});

// The document's rich text is small (contracts: ZRichText), so its nodes and marks are declared
// here rather than taken from tiptap's starter kit, whose unused parts (code blocks, quotes, link
// detection, history) would double the size of the editor's download.

const Document = Node.create({ name: 'doc', topNode: true, content: 'block+' });
const Text = Node.create({ name: 'text', group: 'inline' });
const Paragraph = Node.create({
  name: 'paragraph',
  group: 'block',
  content: 'inline*',
  priority: 1000,
  parseHTML: () => [{ tag: 'p' }, { tag: 'h4' }, { tag: 'h5' }, { tag: 'h6' }, { tag: 'div' }],
  renderHTML: ({ HTMLAttributes }) => ['p', HTMLAttributes, 0],
});
/** Headings 1 to 3 are kept when a document or a paste holds them; the toolbar offers none. */
const Heading = Node.create({
  name: 'heading',
  group: 'block',
  content: 'inline*',
  defining: true,
  addAttributes: () => ({ level: { default: 2, rendered: false } }),
  parseHTML: () => [1, 2, 3].map((level) => ({ tag: `h${level}`, attrs: { level } })),
  renderHTML: ({ node, HTMLAttributes }) => [`h${String(node.attrs.level)}`, HTMLAttributes, 0],
});
const HardBreak = Node.create({
  name: 'hardBreak',
  group: 'inline',
  inline: true,
  selectable: false,
  parseHTML: () => [{ tag: 'br' }],
  renderHTML: () => ['br'],
  addKeyboardShortcuts() {
    return { 'Shift-Enter': () => this.editor.commands.insertContent({ type: this.name }) };
  },
});
const ListItem = Node.create({
  name: 'listItem',
  content: 'paragraph (bulletList | orderedList)*',
  defining: true,
  parseHTML: () => [{ tag: 'li' }],
  renderHTML: ({ HTMLAttributes }) => ['li', HTMLAttributes, 0],
  addKeyboardShortcuts() {
    return {
      Enter: () => this.editor.commands.splitListItem(this.name),
      Tab: () => this.editor.commands.sinkListItem(this.name),
      'Shift-Tab': () => this.editor.commands.liftListItem(this.name),
    };
  },
});
const BulletList = Node.create({
  name: 'bulletList',
  group: 'block',
  content: 'listItem+',
  parseHTML: () => [{ tag: 'ul' }],
  renderHTML: ({ HTMLAttributes }) => ['ul', HTMLAttributes, 0],
});
const OrderedList = Node.create({
  name: 'orderedList',
  group: 'block',
  content: 'listItem+',
  addAttributes: () => ({
    start: {
      default: 1,
      parseHTML: (element) => (element.hasAttribute('start') ? Number(element.getAttribute('start')) || 1 : 1),
    },
  }),
  parseHTML: () => [{ tag: 'ol' }],
  renderHTML: ({ HTMLAttributes }) => ['ol', HTMLAttributes, 0],
});

const simpleMark = (
  name: string,
  tags: string[],
  key: string,
  style?: { name: string; test: (value: string) => boolean },
) =>
  Mark.create({
    name,
    parseHTML: () => [
      ...tags.map((tag) => ({ tag })),
      ...(style ? [{ style: style.name, getAttrs: (value: string) => (style.test(value) ? null : false) }] : []),
    ],
    renderHTML: ({ HTMLAttributes }) => [tags[0]!, HTMLAttributes, 0],
    addKeyboardShortcuts() {
      return { [key]: () => this.editor.commands.toggleMark(this.name) };
    },
  });
const Bold = simpleMark('bold', ['strong', 'b'], 'Mod-b', {
  name: 'font-weight',
  test: (v) => /^(bold(er)?|[6-9]00)$/.test(v),
});
const Italic = simpleMark('italic', ['em', 'i'], 'Mod-i', { name: 'font-style', test: (v) => v === 'italic' });
const Underline = simpleMark('underline', ['u'], 'Mod-u', {
  name: 'text-decoration',
  test: (v) => v.includes('underline'),
});

/** A link to an http(s), mailto: or tel: address only; others are dropped when pasted. */
const Link = Mark.create({
  name: 'link',
  inclusive: false,
  addAttributes: () => ({ href: { default: null } }),
  parseHTML: () => [
    {
      tag: 'a[href]',
      getAttrs: (element) => {
        const href = element.getAttribute('href') ?? '';
        return isSafeHref(href) ? { href } : false;
      },
    },
  ],
  renderHTML: ({ HTMLAttributes }) => [
    'a',
    mergeAttributes(HTMLAttributes, { rel: 'noopener noreferrer nofollow', target: '_blank' }),
    0,
  ],
});

/**
 * Exactly what the block document's rich text holds (contracts: ZRichText): paragraphs, lists,
 * hard breaks, bold, italic, underline, links, colour, size, alignment, personal tags. History is
 * the builder's own (one undo for the whole template), so tiptap has none.
 */
export function richTextExtensions(tagLabel: (key: string) => string): Extensions {
  return [
    Document,
    Text,
    Paragraph,
    Heading,
    HardBreak,
    ListItem,
    BulletList,
    OrderedList,
    Bold,
    Italic,
    Underline,
    Link,
    TextStyle,
    Color,
    FontSize,
    TextAlign.configure({ types: ['paragraph', 'heading'], alignments: ['left', 'center', 'right', 'justify'] }),
    PersonalTag.configure({ label: tagLabel }),
  ];
}

type TJson = { type?: string; attrs?: Record<string, unknown>; marks?: TJson[]; content?: TJson[]; text?: string };

function cleanMarks(marks: TJson[] | undefined): TJson[] | undefined {
  if (!marks) return undefined;
  const kept = marks.flatMap((mark): TJson[] => {
    if (mark.type === 'link') {
      const href = typeof mark.attrs?.href === 'string' ? mark.attrs.href : '';
      return isSafeHref(href) ? [{ type: 'link', attrs: { href } }] : [];
    }
    if (mark.type === 'textStyle') {
      const color = typeof mark.attrs?.color === 'string' && COLOR.test(mark.attrs.color) ? mark.attrs.color : null;
      const fontSize =
        typeof mark.attrs?.fontSize === 'string' && FONT_SIZE.test(mark.attrs.fontSize) ? mark.attrs.fontSize : null;
      return color || fontSize ? [{ type: 'textStyle', attrs: { color, fontSize } }] : [];
    }
    return [{ type: mark.type }];
  });
  return kept.length > 0 ? kept : undefined;
}

function cleanNode(node: TJson): TJson {
  const out: TJson = { type: node.type };
  if (node.type === 'text') out.text = node.text;
  if (node.type === 'personalTag') out.attrs = { key: node.attrs?.key, fallback: node.attrs?.fallback ?? null };
  if (node.type === 'paragraph' || node.type === 'heading') {
    const align = node.attrs?.textAlign;
    out.attrs = { textAlign: typeof align === 'string' ? align : null };
    if (node.type === 'heading') out.attrs.level = node.attrs?.level;
  }
  if (node.type === 'orderedList') out.attrs = { start: typeof node.attrs?.start === 'number' ? node.attrs.start : 1 };
  const marks = cleanMarks(node.marks);
  if (marks) out.marks = marks;
  if (node.content) out.content = node.content.map(cleanNode);
  return out;
}

/**
 * The editor's JSON reduced to what the contract accepts: pasted colours that are not `#rrggbb`,
 * links that are not http(s), mailto: or tel:, and attributes the renderer does not read are
 * dropped here, so that a paste never makes the template unsavable.
 */
export function cleanRichText(json: unknown): TRichText {
  return cleanNode(json as TJson) as TRichText;
}
