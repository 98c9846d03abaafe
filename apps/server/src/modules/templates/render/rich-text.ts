import type { TList, TParagraph, THeading, TRichText, TRichTextNode, TTextInline, TTextMark } from '@yado/contracts';
import { escapeHtml, type SlotTable } from './slots.ts';

/**
 * Rich text (the tiptap JSON subset of the contract) as email HTML. Every character of user text is
 * escaped here and every style is built from checked values (hex colours, px sizes, an alignment
 * of four), so no stored text can become markup.
 */

const HEADING_SIZES = { 1: 28, 2: 22, 3: 18 } as const;
const LINK_COLOR = '#1c7ed6';

export function richTextHtml(doc: TRichText, slots: SlotTable): string {
  return doc.content.map((node) => blockHtml(node, slots)).join('');
}

function blockHtml(node: TRichTextNode, slots: SlotTable): string {
  switch (node.type) {
    case 'paragraph':
      return paragraphHtml(node, slots);
    case 'heading':
      return headingHtml(node, slots);
    default:
      return listHtml(node, slots);
  }
}

const alignStyle = (align: string | null | undefined) => (align && align !== 'left' ? `text-align:${align};` : '');

function paragraphHtml(node: TParagraph, slots: SlotTable): string {
  const inner = inlineHtml(node.content ?? [], slots);
  // An empty paragraph is a blank line, as in the editor.
  return `<p style="margin:0;${alignStyle(node.attrs?.textAlign)}">${inner || '&nbsp;'}</p>`;
}

function headingHtml(node: THeading, slots: SlotTable): string {
  const level = node.attrs.level;
  const inner = inlineHtml(node.content ?? [], slots);
  return `<h${level} style="margin:0;font-size:${HEADING_SIZES[level]}px;line-height:1.3;font-weight:bold;${alignStyle(node.attrs.textAlign)}">${inner || '&nbsp;'}</h${level}>`;
}

function listHtml(node: TList, slots: SlotTable): string {
  const tag = node.type === 'orderedList' ? 'ol' : 'ul';
  const start =
    node.type === 'orderedList' && node.attrs?.start && node.attrs.start !== 1 ? ` start="${node.attrs.start}"` : '';
  const items = node.content
    .map(
      (item) =>
        `<li>${item.content.map((child) => (child.type === 'paragraph' ? listParagraphHtml(child, slots) : listHtml(child, slots))).join('')}</li>`,
    )
    .join('');
  return `<${tag}${start} style="margin:0;padding-left:1.5em;">${items}</${tag}>`;
}

/** A paragraph inside a list item: no block margins, so the bullet stays on its line. */
function listParagraphHtml(node: TParagraph, slots: SlotTable): string {
  const inner = inlineHtml(node.content ?? [], slots);
  const align = alignStyle(node.attrs?.textAlign);
  return align ? `<div style="${align}">${inner}</div>` : inner;
}

function inlineHtml(nodes: TTextInline[], slots: SlotTable): string {
  let out = '';
  for (const node of nodes) {
    let inner: string;
    if (node.type === 'text') inner = slots.withTags(node.text, escapeHtml);
    else if (node.type === 'hardBreak') inner = '<br>';
    else inner = slots.marker(node.attrs.key, node.attrs.fallback);
    out += node.type === 'hardBreak' ? inner : withMarks(inner, node.marks ?? []);
  }
  return out;
}

/** Wraps `inner` in its marks; a link outermost, so its colour can yield to the text's own. */
function withMarks(inner: string, marks: TTextMark[]): string {
  let html = inner;
  let color: string | null = null;
  let href: string | null = null;
  let underline = false;
  for (const mark of marks) {
    switch (mark.type) {
      case 'bold':
        html = `<strong>${html}</strong>`;
        break;
      case 'italic':
        html = `<em>${html}</em>`;
        break;
      case 'underline':
        underline = true;
        break;
      case 'textStyle': {
        const styles: string[] = [];
        if (mark.attrs.color) {
          styles.push(`color:${mark.attrs.color}`);
          color = mark.attrs.color;
        }
        if (mark.attrs.fontSize) styles.push(`font-size:${mark.attrs.fontSize}`, 'line-height:1.4');
        if (styles.length > 0) html = `<span style="${styles.join(';')}">${html}</span>`;
        break;
      }
      case 'link':
        href = mark.attrs.href;
        break;
    }
  }
  if (underline && !href) html = `<u>${html}</u>`;
  if (href)
    html = `<a href="${escapeHtml(href)}" target="_blank" style="color:${color ?? LINK_COLOR};text-decoration:underline;">${html}</a>`;
  return html;
}
