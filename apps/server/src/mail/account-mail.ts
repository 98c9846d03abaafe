import en from './messages/en.json' with { type: 'json' };
import ja from './messages/ja.json' with { type: 'json' };

export type TLanguage = 'ja' | 'en';
type TKind = 'reset_password' | 'invitation';

const CATALOGUE = { ja, en } as const;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const fill = (template: string, params: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => params[k] ?? '');

/** A short account mail (reset link, invitation) in the reader's language, as text and HTML. */
export function accountMail(kind: TKind, language: TLanguage, params: { name: string; link: string; host?: string }) {
  const m = CATALOGUE[language][kind];
  const footer = CATALOGUE[language].footer;
  const values = { name: params.name, host: params.host ?? '' };
  const lines = [fill(m.greeting, values), '', fill(m.body, values), '', params.link, '', m.ignore, '', '--', footer];
  const html = `<!doctype html><html lang="${language}"><body style="font-family:sans-serif;line-height:1.6;color:#1a1b1e">
<p>${escapeHtml(fill(m.greeting, values))}</p>
<p>${escapeHtml(fill(m.body, values))}</p>
<p><a href="${escapeHtml(params.link)}" style="display:inline-block;padding:10px 18px;background:#1c7ed6;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(m.button)}</a></p>
<p style="font-size:12px;color:#555">${escapeHtml(params.link)}</p>
<p style="font-size:12px;color:#555">${escapeHtml(m.ignore)}</p>
<p style="font-size:12px;color:#888">${escapeHtml(footer)}</p>
</body></html>`;
  return { subject: m.subject, text: lines.join('\n'), html };
}
