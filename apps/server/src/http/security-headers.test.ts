import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers.ts';

describe('securityHeaders', () => {
  it('sets helmet headers on every route but one that opts out, reading a function directive per response', async () => {
    let origin = 'https://a.example.jp';
    const app = Fastify();
    securityHeaders(app, {
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], imgSrc: ["'self'", () => origin] } },
    });
    app.get('/page', async () => ({ ok: true }));
    app.get('/pixel', { config: { securityHeaders: false } }, async (_request, reply) =>
      reply.header('x-content-type-options', 'nosniff').send('gif'),
    );

    const first = await app.inject('/page');
    expect(first.headers['content-security-policy']).toContain("img-src 'self' https://a.example.jp");
    expect(first.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(first.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(first.headers['referrer-policy']).toBe('no-referrer');

    // Built once, yet the directive's value is the one of the moment.
    origin = 'https://b.example.jp';
    expect((await app.inject('/page')).headers['content-security-policy']).toContain(
      "img-src 'self' https://b.example.jp",
    );

    const pixel = await app.inject('/pixel');
    expect(pixel.headers['content-security-policy']).toBeUndefined();
    expect(pixel.headers['x-frame-options']).toBeUndefined();
    expect(pixel.headers['x-content-type-options']).toBe('nosniff');

    // A route that does not exist still answers with the headers.
    expect((await app.inject('/nowhere')).headers['x-frame-options']).toBe('SAMEORIGIN');
    await app.close();
  });
});
