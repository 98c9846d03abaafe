import { expect } from 'vitest';
import type { TTestServer } from './harness.ts';
import { staticSegment } from './segments.ts';

/** What a journey test mails: one guest of さくらホテルズ, alone in a static segment, and a template. */
export type TGuestToMail = { guestId: string; segmentId: string; templateId: string; senderEmail: string };

/**
 * A guest of the demo brand with the address and phone given (a phone of the test's own: phones
 * are unique per brand), alone in a static segment named `name`, and an empty template of that
 * name, made through the API as a user makes them; the brand's sender address for the mail node.
 */
export async function guestToMail(
  s: TTestServer,
  token: string,
  guest: { name: string; email: string; phone: string; firstName: string; lastName: string },
): Promise<TGuestToMail> {
  const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  const [settings] = await s.sql(`select sender_email from campaign_email_settings where host_id = $1`, [brand.id]);
  const [row] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, $2, $3, $4, $5) returning id`,
    [brand.id, guest.firstName, guest.lastName, guest.phone, guest.email],
  );
  const segmentId = await staticSegment(s, token, guest.name, [row.id]);
  const template = await s.call('POST', '/v1/templates', {
    token,
    body: {
      name: guest.name,
      defaultLanguage: 'ja',
      contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
    },
  });
  expect(template.status, JSON.stringify(template.body)).toBe(200);
  return { guestId: row.id, segmentId, templateId: template.body.data.id, senderEmail: settings.sender_email };
}

/**
 * A running scenario that mails `to`'s segment once with `subject`, after a wait of `waitDays`
 * when given (a delay node `wait` between the trigger `start` and the mail node `mail`). Its id.
 */
export async function runMailScenario(
  s: TTestServer,
  token: string,
  name: string,
  to: TGuestToMail,
  subject: string,
  waitDays?: number,
): Promise<string> {
  const start = { id: 'start', type: 'trigger', data: { kind: 'segment_members', segmentId: to.segmentId } };
  const mail = { id: 'mail', type: 'email', data: { templateId: to.templateId, subject, senderEmail: to.senderEmail } };
  const graph =
    waitDays === undefined
      ? { nodes: [start, mail], edges: [{ id: 'a', source: 'start', target: 'mail' }] }
      : {
          nodes: [
            start,
            { id: 'wait', type: 'delay', data: { kind: 'duration', amount: waitDays, unit: 'days' } },
            mail,
          ],
          edges: [
            { id: 'a', source: 'start', target: 'wait' },
            { id: 'b', source: 'wait', target: 'mail' },
          ],
        };
  const created = await s.call('POST', '/v1/scenarios', { token, body: { name, graph } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as string;
  const run = await s.call('POST', `/v1/scenarios/${id}/actions`, { token, body: { action: 'run' } });
  expect(run.body.data?.status, JSON.stringify(run.body)).toBe('running');
  return id;
}
