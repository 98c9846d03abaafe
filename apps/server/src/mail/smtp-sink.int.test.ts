import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, type TTestServer } from '../test/harness.ts';

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
    await s.rt.mailer.sendMail({ from: 'a@yado.local', to: 'after.drops@demo.test', subject: 'still here', text: 'ok' });
    const mail = await eventually(async () => (await s.outbox('after.drops@demo.test'))[0]);
    expect(mail.subject).toBe('still here');
  });
});
