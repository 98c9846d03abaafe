import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { describe, expect, it } from 'vitest';
import { composeMessage, signingKey } from './compose-message.ts';
import { signedRaw } from './dkim-sign.ts';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
const resolver = async (name: string, type: string) => {
  if (type === 'TXT' && name === 'yado2026._domainkey.sakura.example.jp') return [[record]];
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
};

describe('DKIM signed off the event loop', () => {
  it('passes an independent verifier (mailauth), over the List-Unsubscribe pair too', async () => {
    const mail = composeMessage({
      campaignId: 'c',
      deliveryId: 'd',
      to: 'guest@example.jp',
      language: 'ja',
      message: {
        subject: '山田 花子 様、夏のご案内',
        html: `<html><body><p>${'ご滞在をより快適に。 '.repeat(200)}</p>  \n\n</body></html>`,
        text: 'ご案内   です \n\n\n',
      },
      publicUrl: 'https://yado.example.jp',
      identity: {
        from: { name: 'さくらホテルズ', address: 'info@sakura.example.jp' },
        replyTo: null,
        footer: { senderName: 'さくら', postalAddress: '東京' },
      },
      dkim: signingKey({
        domainName: 'sakura.example.jp',
        keySelector: 'yado2026',
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      }),
      tracking: {
        openPixelUrl: 'https://yado.example.jp/t/o/x',
        unsubscribePageUrl: 'https://yado.example.jp/u/x',
        listUnsubscribeHeaders: {
          'List-Unsubscribe':
            '<https://yado.example.jp/v1/public/unsubscribe?token=x>, <mailto:info@sakura.example.jp>',
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
        unsubscribeUrl: 'https://yado.example.jp/v1/public/unsubscribe?token=x',
        clickUrl: (_url: string, i: number) => `https://yado.example.jp/t/c/${i}`,
      },
    });
    const signed = await signedRaw(mail);
    const result = await dkimVerify(signed.raw as Buffer, { resolver });
    expect(result.results[0]?.status.result).toBe('pass');
    // A changed unsubscribe address breaks it: the pair is covered.
    const tampered = Buffer.from((signed.raw as Buffer).toString('latin1').replace('token=x>', 'token=y>'), 'latin1');
    expect((await dkimVerify(tampered, { resolver })).results[0]?.status.result).toBe('fail');
    expect(signed.envelope).toEqual({ from: 'info@sakura.example.jp', to: ['guest@example.jp'] });
    const signature =
      /^DKIM-Signature:([\s\S]*?)\r\n(?![ \t])/im.exec((signed.raw as Buffer).toString())?.[1]?.replace(/\s+/g, '') ??
      '';
    expect(signature).toContain(
      'h=from:subject:date:message-id:to:mime-version:content-type:list-unsubscribe:list-unsubscribe-post;',
    );
  });

  it('signs a mail of another shape too (built by nodemailer), and it passes the verifier', async () => {
    const key = signingKey({
      domainName: 'sakura.example.jp',
      keySelector: 'yado2026',
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    });
    const signed = await signedRaw({
      from: { name: 'さくらホテルズ', address: 'info@sakura.example.jp' },
      to: 'guest@example.jp',
      subject: 'ご案内',
      text: 'ご案内です',
      messageId: '<x.y@sakura.example.jp>',
      attachments: [{ filename: 'plan.txt', content: '冬のプラン' }],
      dkim: { ...key, headerFieldNames: 'From:Subject:Message-ID:To' } as never,
    });
    const raw = signed.raw as Buffer;
    expect(raw.toString()).toContain('Content-Disposition: attachment');
    expect((await dkimVerify(raw, { resolver })).results[0]?.status.result).toBe('pass');
  });
});
