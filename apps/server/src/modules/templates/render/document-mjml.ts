import {
  DIVIDER_WIDTH_PX,
  EMAIL_WIDTH,
  TEMPLATE_LANGUAGES,
  type TBlock,
  type TBlockDocument,
  type TPreviewWarning,
  type TSection,
  type TTemplateLanguage,
} from '@yado/contracts';
import { richTextHtml } from './rich-text.ts';
import { sanitizeHtml } from './sanitize-html.ts';
import { escapeHtml, type SlotTable } from './slots.ts';

/**
 * A block document as MJML: one mj-section per section, one mj-column per column, one component
 * per block. Attribute values are escaped and come from checked fields; text is escaped in
 * rich-text.ts; the code block's HTML is sanitised. Personal tags are slot markers (slots.ts).
 */

export interface TMjmlOptions {
  language: TTemplateLanguage;
  preheader: string;
  /** The absolute address a stored image (`/files/logos/...`) is linked by in mail. */
  imageUrl: (src: string) => string;
}

export interface TMjmlResult {
  mjml: string;
  warnings: TPreviewWarning[];
}

const FONT_FAMILY =
  "'Helvetica Neue', Helvetica, Arial, 'Hiragino Sans', 'Hiragino Kaku Gothic ProN', Meiryo, sans-serif";
/** Left and right padding of every block inside its column. */
const SIDE_PADDING = 20;

const attr = (name: string, value: string | number) => ` ${name}="${escapeHtml(String(value))}"`;
const padding = (vertical: number) => attr('padding', `${vertical}px ${SIDE_PADDING}px`);

export function documentToMjml(document: TBlockDocument, slots: SlotTable, options: TMjmlOptions): TMjmlResult {
  const warnings: TPreviewWarning[] = [];
  const sections = document.sections
    .map((section) => sectionMjml(section, document, slots, options, warnings))
    .join('\n');
  const lang = TEMPLATE_LANGUAGES.includes(options.language) ? options.language : 'ja';
  const preview = options.preheader ? `<mj-preview>${slots.withTags(options.preheader, escapeHtml)}</mj-preview>` : '';
  const mjml = `<mjml lang="${lang}">
<mj-head>
${preview}
<mj-attributes>
<mj-all font-family="${escapeHtml(FONT_FAMILY)}"></mj-all>
<mj-text${attr('font-size', `${document.fontSize}px`)}${attr('color', document.textColor)} line-height="1.6"></mj-text>
</mj-attributes>
</mj-head>
<mj-body${attr('background-color', document.backgroundColor)}${attr('width', `${EMAIL_WIDTH}px`)}>
${sections}
</mj-body>
</mjml>`;
  return { mjml, warnings };
}

function sectionMjml(
  section: TSection,
  document: TBlockDocument,
  slots: SlotTable,
  options: TMjmlOptions,
  warnings: TPreviewWarning[],
): string {
  const columnWidth = EMAIL_WIDTH / section.columns.length;
  const columns = section.columns
    .map((column) => {
      const blocks = column.blocks.map((block) => blockMjml(block, columnWidth, slots, options, warnings)).join('\n');
      return `<mj-column${attr('width', `${(100 / section.columns.length).toFixed(4).replace(/\.?0+$/, '')}%`)}>\n${blocks}\n</mj-column>`;
    })
    .join('\n');
  const background = section.backgroundColor ?? document.contentBackgroundColor;
  return `<mj-section${attr('background-color', background)}${attr('padding', `${section.paddingTop}px 0px ${section.paddingBottom}px 0px`)}>\n${columns}\n</mj-section>`;
}

export function blockMjml(
  block: TBlock,
  columnWidth: number,
  slots: SlotTable,
  options: TMjmlOptions,
  warnings: TPreviewWarning[],
): string {
  switch (block.type) {
    case 'text':
      return `<mj-text${padding(block.padding)}>${richTextHtml(block.content, slots)}</mj-text>`;
    case 'divider':
      return `<mj-divider${attr('border-width', `${DIVIDER_WIDTH_PX[block.thickness]}px`)}${attr('border-color', block.color)}${padding(block.padding)}></mj-divider>`;
    case 'image': {
      if (!block.src) {
        warnings.push({ code: 'image_missing', blockId: block.id });
        return '';
      }
      if (!block.alt) warnings.push({ code: 'image_missing_alt', blockId: block.id });
      const width = Math.max(1, Math.round(((columnWidth - 2 * SIDE_PADDING) * block.width) / 100));
      const href = block.href ? attr('href', block.href) : '';
      // A full-width image of a narrow column fills the phone's width once the columns stack.
      const fluid = block.width === 100 ? ' fluid-on-mobile="true"' : '';
      return `<mj-image${attr('src', options.imageUrl(block.src))}${attr('alt', block.alt)}${href}${attr('width', `${width}px`)}${attr('align', block.align)}${fluid}${padding(block.padding)}></mj-image>`;
    }
    case 'button': {
      // Left out of the mail, and said: a button without a label would be an empty box.
      if (!block.label.trim()) {
        warnings.push({ code: 'button_label_missing', blockId: block.id });
        return '';
      }
      if (!block.href) warnings.push({ code: 'link_missing', blockId: block.id });
      const href = block.href ? attr('href', block.href) : '';
      const width = block.fullWidth ? attr('width', '100%') : '';
      return `<mj-button${href}${attr('background-color', block.backgroundColor)}${attr('color', block.textColor)}${attr('align', block.align)}${width} font-weight="bold" border-radius="6px" inner-padding="12px 24px"${padding(block.padding)}>${slots.withTags(block.label, escapeHtml)}</mj-button>`;
    }
    case 'code': {
      const html = sanitizeHtml(block.html, (text) => slots.withTags(text, (s) => s));
      return `<mj-text${padding(block.padding)}>${html}</mj-text>`;
    }
    case 'link': {
      if (!block.label.trim()) {
        warnings.push({ code: 'link_label_missing', blockId: block.id });
        return '';
      }
      if (!block.href) warnings.push({ code: 'link_missing', blockId: block.id });
      const label = slots.withTags(block.label, escapeHtml);
      const inner = block.href
        ? `<a href="${escapeHtml(block.href)}" target="_blank" style="color:${block.color};text-decoration:underline;">${label}</a>`
        : `<span style="color:${block.color};">${label}</span>`;
      return `<mj-text${padding(block.padding)}${attr('align', block.align)}${attr('font-size', `${block.fontSize}px`)}>${inner}</mj-text>`;
    }
  }
}
