import type { DOMPurify } from 'dompurify';
import type { JSDOM } from 'jsdom';

/**
 * The code block's HTML, made safe to send: DOMPurify (kept up to date against new bypasses) over
 * jsdom. Scripts, event handlers, javascript: (any link but http(s), mailto and tel), forms and
 * their fields, frames, objects and styles that load things are removed; ordinary layout HTML with
 * inline styles, tables and images stays.
 */
interface TPurifier {
  purify: DOMPurify;
  window: JSDOM['window'];
}
let purifier: TPurifier | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads jsdom and DOMPurify (over a second of start-up on this machine, so not at import: a server
 * that renders no mail never pays it). `compileMessage` awaits it before rendering.
 */
export function loadSanitizer(): Promise<void> {
  loading ??= (async () => {
    const [{ JSDOM: Dom }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
    purifier = create(new Dom('').window, createDOMPurify);
  })();
  return loading;
}

function instance(): TPurifier {
  if (!purifier) throw new Error('sanitizeHtml before loadSanitizer');
  return purifier;
}

function create(window: JSDOM['window'], createDOMPurify: typeof import('dompurify').default): TPurifier {
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  purify.addHook('afterSanitizeAttributes', (node) => {
    const style = node.getAttribute?.('style');
    // url(...) in a style loads from anywhere (and expression() ran script in old IE).
    if (style && /url\s*\(|expression\s*\(|@import|javascript:|behavior\s*:/i.test(style))
      node.removeAttribute('style');
  });
  return { purify, window };
}

const FORBID_TAGS = [
  'form',
  'input',
  'button',
  'select',
  'option',
  'textarea',
  'fieldset',
  'label',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'base',
  'link',
  'meta',
  'script',
  'style',
  'svg',
  'math',
  'template',
  'video',
  'audio',
  'source',
  'track',
  'noscript',
];

/**
 * Returns the safe subset of `html` as HTML text. `mapText` may rewrite each text node (personal
 * tags become slots there, never in attributes, so a value cannot become a link).
 */
export function sanitizeHtml(html: string, mapText?: (text: string) => string): string {
  const { purify, window } = instance();
  const fragment = purify.sanitize(html, {
    FORBID_TAGS,
    FORBID_ATTR: ['action', 'formaction', 'srcset', 'background', 'ping', 'xlink:href', 'id', 'name'],
    // DOMPurify's own pattern with fewer schemes: a value with a scheme must be http(s), mailto or
    // tel; values without one (100%, center, a colour) pass.
    ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
    ALLOW_DATA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  if (mapText) {
    const walker = window.document.createTreeWalker(fragment, window.NodeFilter.SHOW_TEXT);
    const texts: Text[] = [];
    while (walker.nextNode()) texts.push(walker.currentNode as Text);
    for (const node of texts) node.data = mapText(node.data);
  }
  const holder = window.document.createElement('div');
  holder.appendChild(fragment);
  return holder.innerHTML;
}
