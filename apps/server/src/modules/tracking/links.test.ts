import { describe, expect, it } from 'vitest';
import {
  applyLinks,
  deliveryTracking,
  openClickToken,
  openDeliveryToken,
  openUnsubscribeToken,
  planLinks,
  signClick,
  signDelivery,
  trackingKeys,
} from './links.ts';

const keys = trackingKeys('a-server-secret-that-is-long-enough-for-tests');
const otherKeys = trackingKeys('another-server-secret-that-is-long-enough-too');
const delivery = '0b6f2c1e-5d4a-4c3b-9a8e-7f6d5c4b3a21';
const base = 'https://yado.example.jp';

const tokenOf = (url: string, prefix: string) => url.slice(url.indexOf(prefix) + prefix.length);

/** Every single-character change of a token, at each position. */
function alterations(token: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < token.length; i++) {
    const c = token[i] === 'A' ? 'B' : 'A';
    out.push(token.slice(0, i) + c + token.slice(i + 1));
  }
  return out;
}

describe('delivery tokens (open pixel, unsubscribe)', () => {
  it('opens what it signed, for its own purpose only', () => {
    const open = signDelivery(keys, 'open', delivery);
    const unsubscribe = signDelivery(keys, 'unsubscribe', delivery);
    expect(openDeliveryToken(keys, 'open', open)).toBe(delivery);
    expect(openDeliveryToken(keys, 'unsubscribe', unsubscribe)).toBe(delivery);
    // An open token never unsubscribes anyone, and the other way round.
    expect(openDeliveryToken(keys, 'unsubscribe', open)).toBeNull();
    expect(openDeliveryToken(keys, 'open', unsubscribe)).toBeNull();
  });

  it('refuses unsigned, altered, truncated and foreign tokens', () => {
    const token = signDelivery(keys, 'unsubscribe', delivery);
    const [id] = token.split('.');
    expect(openDeliveryToken(keys, 'unsubscribe', id as string)).toBeNull();
    expect(openDeliveryToken(keys, 'unsubscribe', `${id}.`)).toBeNull();
    expect(openDeliveryToken(keys, 'unsubscribe', token.slice(0, -1))).toBeNull();
    expect(openDeliveryToken(keys, 'unsubscribe', `${token}A`)).toBeNull();
    expect(openDeliveryToken(keys, 'unsubscribe', '')).toBeNull();
    expect(openDeliveryToken(keys, 'unsubscribe', 'x'.repeat(10_000))).toBeNull();
    for (const altered of alterations(token)) expect(openDeliveryToken(keys, 'unsubscribe', altered)).toBeNull();
    expect(openDeliveryToken(otherKeys, 'unsubscribe', token)).toBeNull();
  });

  it('names another delivery only with that delivery’s own signature', () => {
    const other = '11111111-2222-4333-8444-555555555555';
    const [, macOfFirst] = signDelivery(keys, 'open', delivery).split('.');
    const [idOfOther] = signDelivery(keys, 'open', other).split('.');
    expect(openDeliveryToken(keys, 'open', `${idOfOther}.${macOfFirst}`)).toBeNull();
  });
});

describe('unsubscribe tokens with the guest', () => {
  const customer = '7d1f0e2a-3b4c-4d5e-8f60-718293a4b5c6';

  it('name the delivery and the guest, and refuse every alteration', () => {
    const t = deliveryTracking(keys, base, delivery, { customerId: customer });
    const token = tokenOf(t.unsubscribeUrl, 'token=');
    expect(openUnsubscribeToken(keys, token)).toEqual({ deliveryId: delivery, customerId: customer });
    for (const altered of alterations(token)) expect(openUnsubscribeToken(keys, altered)).toBeNull();
    for (let cut = 1; cut < token.length; cut++) expect(openUnsubscribeToken(keys, token.slice(0, cut))).toBeNull();
    const [d, , m] = token.split('.');
    const [other] = signDelivery(keys, 'open', '11111111-2222-4333-8444-555555555555').split('.');
    expect(openUnsubscribeToken(keys, `${d}.${other}.${m}`)).toBeNull();
    expect(openUnsubscribeToken(otherKeys, token)).toBeNull();
    // The open pixel's token is no unsubscribe token in either form.
    expect(openUnsubscribeToken(keys, tokenOf(t.openPixelUrl, '/t/o/'))).toBeNull();
  });

  it('still open in the older form without the guest', () => {
    expect(openUnsubscribeToken(keys, signDelivery(keys, 'unsubscribe', delivery))).toEqual({
      deliveryId: delivery,
      customerId: null,
    });
  });
});

describe('click tokens', () => {
  const url = 'https://sakura-hotels.example.jp/summer?utm_source=mail&room=deluxe';

  it('gives back the delivery, the link index and the address', () => {
    expect(openClickToken(keys, signClick(keys, delivery, 3, url))).toEqual({
      deliveryId: delivery,
      linkIndex: 3,
      url,
    });
  });

  it('refuses every altered or truncated token, so no address of an attacker is ever redirected to', () => {
    const token = signClick(keys, delivery, 0, url);
    for (const altered of alterations(token)) expect(openClickToken(keys, altered)).toBeNull();
    for (let cut = 1; cut < token.length; cut++) expect(openClickToken(keys, token.slice(0, cut))).toBeNull();
    const [id, index, , mac] = token.split('.');
    const evil = Buffer.from('https://evil.example/phish', 'utf8').toString('base64url');
    expect(openClickToken(keys, `${id}.${index}.${evil}.${mac}`)).toBeNull();
    expect(openClickToken(keys, `${id}.1.${token.split('.')[2]}.${mac}`)).toBeNull();
    expect(openClickToken(keys, `${id}.${evil}`)).toBeNull();
    expect(openClickToken(otherKeys, token)).toBeNull();
  });

  it('refuses a signed address that is not http(s)', () => {
    expect(openClickToken(keys, signClick(keys, delivery, 0, 'javascript:alert(1)'))).toBeNull();
    expect(openClickToken(keys, signClick(keys, delivery, 0, '//evil.example/'))).toBeNull();
  });
});

describe('deliveryTracking', () => {
  it('makes the pixel, click, one-click and page addresses and the RFC 8058 headers', () => {
    const t = deliveryTracking(keys, `${base}/`, delivery, { mailto: 'info@sakura-hotels.example.jp', language: 'en' });
    expect(openDeliveryToken(keys, 'open', tokenOf(t.openPixelUrl, '/t/o/'))).toBe(delivery);
    expect(t.unsubscribeUrl.startsWith(`${base}/v1/public/unsubscribe?token=`)).toBe(true);
    expect(openDeliveryToken(keys, 'unsubscribe', tokenOf(t.unsubscribeUrl, 'token='))).toBe(delivery);
    expect(t.unsubscribePageUrl).toMatch(new RegExp(`^${base}/unsubscribe\\?token=[A-Za-z0-9_.-]+&lang=en$`));
    expect(t.listUnsubscribeHeaders['List-Unsubscribe']).toBe(
      `<${t.unsubscribeUrl}>, <mailto:info@sakura-hotels.example.jp?subject=unsubscribe%20${tokenOf(t.unsubscribeUrl, 'token=')}>`,
    );
    expect(t.listUnsubscribeHeaders['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(openClickToken(keys, tokenOf(t.clickUrl('https://a.example/', 2), '/t/c/'))).toEqual({
      deliveryId: delivery,
      linkIndex: 2,
      url: 'https://a.example/',
    });
  });

  it('refuses a delivery id that is not a UUID', () => {
    expect(() => deliveryTracking(keys, base, '42')).toThrow();
  });
});

describe('rewriteLinks', () => {
  const t = deliveryTracking(keys, base, delivery);
  const html = [
    '<p><a href="https://sakura.example.jp/a?x=1&amp;y=2" target="_blank">A</a>',
    "<a class='b' href='http://sakura.example.jp/b'>B</a>",
    '<a href="mailto:info@sakura.example.jp">mail</a><a href="tel:0312345678">tel</a>',
    `<a href="${t.unsubscribePageUrl}">配信停止</a>`,
    '<img src="https://sakura.example.jp/logo.png">',
    '<a href="https://sakura.example.jp/a?x=1&#38;y=2">A again</a></p>',
  ].join('');

  it('turns each http(s) link into its signed click URL and leaves the rest alone', () => {
    const plan = planLinks(html, base);
    expect(plan.links.map((l) => l.url)).toEqual([
      'https://sakura.example.jp/a?x=1&y=2',
      'http://sakura.example.jp/b',
      'https://sakura.example.jp/a?x=1&y=2',
    ]);
    const out = applyLinks(plan, t);
    const clicks = [...out.matchAll(/\/t\/c\/([A-Za-z0-9_.-]+)/g)].map((m) => openClickToken(keys, m[1] as string));
    expect(clicks).toEqual([
      { deliveryId: delivery, linkIndex: 0, url: 'https://sakura.example.jp/a?x=1&y=2' },
      { deliveryId: delivery, linkIndex: 1, url: 'http://sakura.example.jp/b' },
      { deliveryId: delivery, linkIndex: 2, url: 'https://sakura.example.jp/a?x=1&y=2' },
    ]);
    expect(out).toContain('href="mailto:info@sakura.example.jp"');
    expect(out).toContain('href="tel:0312345678"');
    expect(out).toContain(`href="${t.unsubscribePageUrl}"`);
    expect(out).toContain('<img src="https://sakura.example.jp/logo.png">');
    expect(out).toContain(' target="_blank">A</a>');
    expect(out).toContain("class='b' href='");
    expect(out).not.toContain('href="https://sakura.example.jp');
  });

  it('leaves a mail without links as it was', () => {
    const plain = '<p>こんにちは</p>';
    expect(applyLinks(planLinks(plain, base), t)).toBe(plain);
  });
});
