/**
 * Personalising a 15 KB template for many recipients (DESIGN section 9: >= 20,000 messages/s per
 * core, >= 0.8x a hand-written string replace).
 *
 *   npm run bench -- render [--size 100000] [--rounds 3]
 *
 * The template is compiled once (block document -> MJML -> HTML + text, split at its tags), then
 * each recipient's subject, HTML and text come from `personalise`, the function a campaign send
 * calls. The baseline, in the same process and on the same recipients, is what one would write by
 * hand: the same rendered HTML with `{{tag}}` placeholders, replaceAll per tag with escaped values
 * and the same fallbacks. Both build all three parts per recipient; the best of `rounds` runs of
 * each counts (they alternate, so neither gets a warmer machine).
 */
import { ZTemplateContent } from '@yado/contracts';
import {
  compileMessage,
  personalise,
  type TPersonalValues,
} from '../apps/server/src/modules/templates/render/compile.ts';
import { personalValues } from '../apps/server/src/modules/templates/render/personal-values.ts';
import { arg } from './_support.ts';

const size = arg('size', 100_000);
const rounds = arg('rounds', 3);

const text = (id: string, ...content: unknown[]) => ({
  id,
  type: 'text',
  content: { type: 'doc', content: [{ type: 'paragraph', content }] },
});
const tag = (key: string, fallback?: string) => ({
  type: 'personalTag',
  attrs: { key, ...(fallback ? { fallback } : {}) },
});
const words = 'ご滞在をより快適にお過ごしいただくため、チェックインの前にご確認いただきたいことをお知らせいたします。';

/** A pre-arrival mail: a header, a greeting with tags, paragraphs, an image, a button and a footer. */
const blocks = [
  text('greeting', tag('full_name'), { type: 'text', text: '、{{hotel_name}}へのご予約ありがとうございます。' }),
  text(
    'stay',
    { type: 'text', text: 'チェックイン日: ' },
    tag('check_in_date'),
    { type: 'text', text: ' / ' },
    tag('first_name', 'お客様'),
    { type: 'text', text: 'さまのお部屋をご用意してお待ちしております。' },
  ),
  ...Array.from({ length: 11 }, (_, n) =>
    text(`p${n}`, { type: 'text', text: words, marks: n % 2 ? [{ type: 'bold' }] : [] }),
  ),
  { id: 'img', type: 'image', src: `/files/logos/${'c'.repeat(64)}.jpg`, alt: '客室' },
  { id: 'btn', type: 'button', label: '{{first_name|ご予約}}の内容を確認', href: 'https://example.jp/booking' },
  { id: 'div', type: 'divider', thickness: 'thin' },
  text('footer', tag('hotel_name'), { type: 'text', text: ' 東京都新宿区西新宿2-2-2' }),
];
const content = ZTemplateContent.parse({
  subject: '{{full_name}}、ご到着をお待ちしております',
  preheader: '{{check_in_date}}のご予約について',
  document: { version: 1, sections: [{ id: 's', columns: [{ id: 'c', blocks }] }] },
});
const imageUrl = (src: string) => `https://yado.example${src}`;
const compiled = await compileMessage(content, 'ja', imageUrl);

// The baseline's template: the same output with {{key}} placeholders where ours has slots.
const placeholders = Object.fromEntries(compiled.tags.map((t) => [t.key, `{{${t.key}}}`])) as TPersonalValues;
const asTemplate = personalise(compiled, placeholders);
const FALLBACK = { full_name: 'お客様', first_name: 'お客様', hotel_name: '', check_in_date: '' };

const LAST = ['山田', '佐藤', '鈴木', '高橋', '田中', 'Carter', 'Smith', '伊藤<&>'];
const FIRST = ['太郎', '花子', '一郎', 'Emily', '美咲', 'James', '健太', "O'Brien"];
const HOTELS = ['さくらホテル 新宿', 'さくらホテル 横浜', 'Harbor View Kobe', ''];
const recipients: TPersonalValues[] = Array.from({ length: size }, (_, i) =>
  personalValues(
    {
      firstName: i % 97 === 0 ? '' : `${FIRST[i % FIRST.length]}${i}`,
      lastName: LAST[(i >> 3) % LAST.length],
      hotelName: HOTELS[i % HOTELS.length],
      checkIn: `2027-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    },
    'ja',
  ),
);

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c] as string);

function baseline(v: TPersonalValues) {
  const full = v.full_name || FALLBACK.full_name;
  const first = v.first_name || FALLBACK.first_name;
  const firstButton = v.first_name || 'ご予約';
  const hotel = v.hotel_name || FALLBACK.hotel_name;
  const checkIn = v.check_in_date || FALLBACK.check_in_date;
  // The button's fallback differs from the text's, so the hand-written version needs its own marker.
  const fill = (t: string, e: (s: string) => string) =>
    t
      .replaceAll('{{full_name}}', e(full))
      .replaceAll('{{hotel_name}}', e(hotel))
      .replaceAll('{{check_in_date}}', e(checkIn))
      .replaceAll('{{first_name}}の内容', `${e(firstButton)}の内容`)
      .replaceAll('{{first_name}}', e(first));
  return {
    subject: fill(asTemplate.subject, (s) => s),
    html: fill(asTemplate.html, esc),
    text: fill(asTemplate.text, (s) => s),
  };
}

// Both must write the same mails, or the comparison means nothing.
for (const v of recipients.slice(0, 200)) {
  const a = personalise(compiled, v);
  const b = baseline(v);
  if (a.html !== b.html || a.subject !== b.subject || a.text !== b.text)
    throw new Error('ours and the baseline differ');
}

function run(fn: (v: TPersonalValues) => { subject: string; html: string; text: string }): number {
  let bytes = 0;
  const started = process.hrtime.bigint();
  for (const v of recipients) {
    const m = fn(v);
    // In UTF-8, as the mail goes out: this also flattens a string built by concatenation.
    bytes += Buffer.byteLength(m.html) + Buffer.byteLength(m.subject) + Buffer.byteLength(m.text);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (bytes === 0) throw new Error('nothing written');
  return size / seconds;
}

let ours = 0;
let base = 0;
for (let r = 0; r < rounds; r++) {
  ours = Math.max(
    ours,
    run((v) => personalise(compiled, v)),
  );
  base = Math.max(base, run(baseline));
}
process.stdout.write(
  `template: ${compiled.htmlBytes} bytes of HTML, ${compiled.tags.length} tags in ${compiled.html.slots.length} places; ${size} recipients, best of ${rounds}\n`,
);
process.stdout.write(
  `BENCH render value=${Math.round(ours)} unit=msg/s baseline=${Math.round(base)} ratio=${(ours / base).toFixed(2)}\n`,
);
