import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, eventually, startTestServer, type TTestServer } from '../test/harness.ts';

let s: TTestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('embedded SMTP sink', () => {
  it('survives connections that drop mid-conversation and keeps receiving mail', async () => {
    const port = s.rt.sink?.port as number;
    expect(port).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let said = '';
        let greeted = false;
        let sentMailFrom = false;
        socket.on('data', (chunk: Buffer) => {
          said += chunk.toString();
          if (!greeted && /^220 /m.test(said)) {
            // The sink refuses a client that talks before its greeting.
            greeted = true;
            said = '';
            socket.write('EHLO test\r\n');
          } else if (greeted && !sentMailFrom && /^250 /m.test(said)) {
            sentMailFrom = true;
            said = '';
            socket.write('MAIL FROM:<a@b.jp>\r\n');
          } else if (sentMailFrom && /^250 /m.test(said)) {
            // Inside a transaction now: a reset here is reported as an error event.
            socket.resetAndDestroy();
            setTimeout(resolve, 50);
          }
        });
        socket.on('error', () => resolve());
      });
    }
    await s.rt.mailer.sendMail({
      from: 'a@yado.local',
      to: 'after.drops@demo.test',
      subject: 'still here',
      text: 'ok',
    });
    const mail = await eventually(async () => (await s.outbox('after.drops@demo.test'))[0]);
    expect(mail.subject).toBe('still here');
  });

  it('has stored a message when it answers 250, and the outbox decodes it when read', async () => {
    const to = `stored.${Date.now()}@demo.test`;
    // Ten at once: the sink stores them together (group commit), and answers each only after that.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.rt.mailer.sendMail({
          from: 'a@yado.local',
          to,
          subject: `山田 花子様、夏のご案内 ${i}`,
          text: `本文 ${i}`,
          html: `<p>本文 <b>${i}</b></p>`,
          textEncoding: 'base64',
        }),
      ),
    );
    const stored = await s.sql(`select id, subject, size from dev_outbox where $1 = any(rcpt_to) order by subject`, [
      to,
    ]);
    expect(stored.map((r) => r.subject)).toEqual(Array.from({ length: 10 }, (_, i) => `山田 花子様、夏のご案内 ${i}`));
    const { token } = await s.login(DEMO.grand);
    const listed = await s.call('GET', `/v1/dev/outbox?to=${encodeURIComponent(to)}`, { token });
    const first = listed.body.data.find((m: { subject: string }) => m.subject.endsWith(' 0'));
    expect(first).toMatchObject({ to: [to], from: 'a@yado.local', text: '本文 0', html: '<p>本文 <b>0</b></p>' });
    expect(first.headers).toEqual(
      expect.arrayContaining([{ key: 'content-type', value: expect.stringContaining('multipart/alternative') }]),
    );
    const raw = await s.call('GET', `/v1/dev/outbox/${first.id}/raw`, { token });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toContain('message/rfc822');
    expect(String(raw.body)).toMatch(/^Subject: =\?UTF-8\?/m);
  });

  it('keeps its refusal rules: unknown* is unknown (550), defer* is refused for now (451)', async () => {
    const unknown = await s.rt.mailer
      .sendMail({ from: 'a@yado.local', to: 'unknown.rule@demo.test', subject: 'x', text: 'x' })
      .catch((e: { responseCode?: number }) => e);
    expect((unknown as { responseCode?: number }).responseCode).toBe(550);
    // bounce*, full* and complain* are accepted: their reports come later (to a return path of ours only).
    const later = await s.rt.mailer.sendMail({
      from: 'a@yado.local',
      to: 'bounce.rule@demo.test',
      subject: 'x',
      text: 'x',
    });
    expect(later.accepted).toEqual(['bounce.rule@demo.test']);
    const defer = await s.rt.mailer
      .sendMail({ from: 'a@yado.local', to: `defer.${Date.now()}@demo.test`, subject: 'x', text: 'x' })
      .catch((e: { responseCode?: number }) => e);
    expect((defer as { responseCode?: number }).responseCode).toBe(451);
  });
});
