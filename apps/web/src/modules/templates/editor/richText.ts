import { isSafeHref, type TRichText } from '@yado/contracts/templates';
import { mergeAttributes, Node, type Extensions } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
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

/**
 * Exactly what the block document's rich text holds (contracts: ZRichText): paragraphs, headings
 * 1 to 3, lists, hard breaks, bold, italic, underline, links, colour, size, alignment, personal
 * tags. History is the builder's own (one undo for the whole template), so tiptap's is off.
 */
export function richTextExtensions(tagLabel: (key: string) => string): Extensions {
  return [
    StarterKit.configure({
      blockquote: false,
      code: false,
      codeBlock: false,
      horizontalRule: false,
      strike: false,
      undoRedo: false,
      heading: { levels: [1, 2, 3] },
      link: { openOnClick: false, autolink: false, linkOnPaste: false, isAllowedUri: (url) => isSafeHref(url) },
    }),
    TextStyle,
    Color,
    FontSize,
    TextAlign.configure({ types: ['heading', 'paragraph'], alignments: ['left', 'center', 'right', 'justify'] }),
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
