import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../../db/client.ts';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import { seedDemoSending } from '../../seed/demo-sending.ts';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { staticSegment } from '../../test/segments.ts';
import { campaignsToDispatch } from './send-queries.ts';

/**
 * A draft's planned schedule over HTTP: the time a marketer typed is kept with the draft, so the
 * editor opens it again, while the campaign stays a draft that nothing sends (no send time, never
 * taken up by the dispatcher) until it is scheduled. A scheduled campaign's time changes only by
 * scheduling it again. No worker runs here.
 */

let s: TTestServer;
let brandId: string;
let shinjukuId: string;
const tag = randomBytes(3).toString('hex');
const HARBOR = { 'x-user-role': 'admin', 'x-host-slug': 'harbor-view', 'x-host-level': 'brand' };
const at = (localTime: string) => ({ kind: 'at', localTime, timeZone: 'Asia/Tokyo' });

beforeAll(async () => {
  s = await startTestServer({ worker: false });
  await seedDemoSending(s.rt);
  [{ id: brandId }] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
  [{ id: shinjukuId }] = await s.sql(`select id from hosts where slug = 'sakura-shinjuku'`);
}, 120_000);
afterAll(async () => {
  await s?.close();
});

/** A draft with everything a send needs (a guest in a segment, a template), planned for `planned`. */
async function sendableDraft(token: string, planned: unknown) {
  const [guest] = await s.sql(
    `insert into customers (brand_id, first_name, last_name, phone, email) values ($1, '予定', '山田', $2, $3) returning id`,
    [brandId, `080${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, `planned.${tag}@guest.example.jp`],
  );
  await s.sql(
    `insert into customer_allocations (customer_id, hotel_id, brand_id, source) values ($1, $2, $3, 'manual')`,
    [guest.id, shinjukuId, brandId],
  );
  const segmentId = await staticSegment(s, token, `予定 ${tag} ${Math.random()}`, [guest.id as string]);
  const template = await s.call('POST', '/v1/templates', {
    token,
    body: {
      name: `予定 ${tag} ${Math.random()}`,
      defaultLanguage: 'ja',
      contents: { ja: { subject: '冬のご案内', preheader: '', document: { version: 1, sections: [] } } },
    },
  });
  expect(template.status, JSON.stringify(template.body)).toBe(200);
  const created = await s.call('POST', '/v1/campaigns', {
    token,
    body: {
      name: `冬の予定 ${tag}`,
      subject: '冬のご案内',
      recipients: { segmentIds: [segmentId] },
      templateId: template.body.data.id,
      plannedSchedule: planned,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data;
}

const dispatched = async () =>
  (await withTenant(s.rt.database.db, { scopeAll: true, brandId: null }, (tx) => campaignsToDispatch(tx))).map(
    (r) => r.id,
  );

describe("a draft's planned schedule", () => {
  it('is kept as typed on a draft that stays a draft, is never sent by it, and only its brand sets it', async () => {
    const t = (await s.login(DEMO.brandAdmin)).token;
    const c = await sendableDraft(t, at('2099-12-24T18:00'));
    expect(c).toMatchObject({
      status: 'draft',
      schedule: { kind: 'at', localTime: '2099-12-24T18:00', timeZone: 'Asia/Tokyo' },
      sendAt: null,
    });

    // Changed by a save (the editor's autosave), and read back so.
    const saved = await s.call('PUT', `/v1/campaigns/${c.id}`, {
      token: t,
      body: { subject: '冬の特別なご案内', plannedSchedule: at('2099-12-25T09:30'), updatedAt: c.updatedAt },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const read = (await s.call('GET', `/v1/campaigns/${c.id}`, { token: t })).body.data;
    expect(read).toMatchObject({
      status: 'draft',
      subject: '冬の特別なご案内',
      schedule: { kind: 'at', localTime: '2099-12-25T09:30', timeZone: 'Asia/Tokyo' },
      sendAt: null,
    });

    // A planned time that has passed is kept (the draft was left), and the dispatcher leaves the draft alone.
    const passed = await s.call('PUT', `/v1/campaigns/${c.id}`, {
      token: t,
      body: { plannedSchedule: at('2020-01-01T10:00') },
    });
    expect(passed.body.data).toMatchObject({ status: 'draft', schedule: { localTime: '2020-01-01T10:00' } });
    expect(await dispatched()).not.toContain(c.id);
    // A date that does not exist is refused.
    const bad = await s.call('PUT', `/v1/campaigns/${c.id}`, {
      token: t,
      body: { plannedSchedule: at('2099-02-30T10:00') },
    });
    expect([bad.status, Object.keys(bad.body.error.fields ?? {})]).toEqual([400, ['plannedSchedule']]);

    // Another brand cannot set it: the campaign does not exist for it.
    const harbor = (await s.login(DEMO.harborAdmin)).token;
    const foreign = await s.call('PUT', `/v1/campaigns/${c.id}`, {
      token: harbor,
      headers: HARBOR,
      body: { plannedSchedule: at('2099-06-01T10:00') },
    });
    expect(foreign.status).toBe(404);
    // Nor a viewer of the brand's hotel.
    const viewer = (await s.login(DEMO.hotelViewer)).token;
    expect(
      (
        await s.call('PUT', `/v1/campaigns/${c.id}`, {
          token: viewer,
          body: { plannedSchedule: at('2099-06-01T10:00') },
        })
      ).status,
    ).not.toBe(200);
    expect((await s.call('GET', `/v1/campaigns/${c.id}`, { token: t })).body.data.schedule.localTime).toBe(
      '2020-01-01T10:00',
    );

    // The audit log names the change among the fields.
    const grand = (await s.login(DEMO.grand)).token;
    const log = await s.call('GET', `/v1/audit?hostId=${brandId}&limit=200`, { token: grand });
    const update = log.body.data.find(
      (e: { targetId: string; action: string }) => e.targetId === c.id && e.action === 'update',
    );
    expect(update.changes.fields).toContain('plannedSchedule');
  });

  it("is not how a scheduled campaign's time changes; taken back to draft, it keeps its time as planned, not due", async () => {
    const t = (await s.login(DEMO.brandAdmin)).token;
    const c = await sendableDraft(t, at('2099-11-01T10:00'));
    const scheduled = await s.call('POST', `/v1/campaigns/${c.id}/schedule`, {
      token: t,
      body: { schedule: at('2099-11-02T10:00') },
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    expect(scheduled.body.data.sendAt).toBe('2099-11-02T01:00:00.000Z');

    const refused = await s.call('PUT', `/v1/campaigns/${c.id}`, {
      token: t,
      body: { plannedSchedule: at('2099-11-03T10:00') },
    });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'campaign_not_draft']);
    expect((await s.call('GET', `/v1/campaigns/${c.id}`, { token: t })).body.data).toMatchObject({
      status: 'scheduled',
      schedule: { localTime: '2099-11-02T10:00' },
      sendAt: '2099-11-02T01:00:00.000Z',
    });

    // Unscheduled: a draft without a send time (the list says "not scheduled"), its time kept to reopen.
    const drafted = await s.call('POST', `/v1/campaigns/${c.id}/draft`, { token: t, body: {} });
    expect(drafted.body.data).toMatchObject({
      status: 'draft',
      schedule: { kind: 'at', localTime: '2099-11-02T10:00', timeZone: 'Asia/Tokyo' },
      sendAt: null,
    });
    const list = await s.call('GET', `/v1/campaigns?search=${encodeURIComponent(tag)}&status=draft`, { token: t });
    expect(list.body.data.items.find((i: { id: string }) => i.id === c.id).sendAt).toBeNull();

    // A draft taken back before (its due time kept then) loses it to migration 0047, as the
    // migrator runs it; scheduled campaigns keep theirs.
    const old = await sendableDraft(t, at('2099-10-01T10:00'));
    const other = await sendableDraft(t, at('2099-10-01T11:00'));
    await s.call('POST', `/v1/campaigns/${other.id}/schedule`, {
      token: t,
      body: { schedule: at('2099-10-01T11:00') },
    });
    await s.sql(`update campaigns set send_at = '2099-10-01T01:00:00Z' where id = $1`, [old.id]);
    const statements = readFileSync(join(MIGRATIONS_FOLDER, '0047_drafts_not_due.sql'), 'utf8').split(
      '--> statement-breakpoint',
    );
    await s.rt.database.db.transaction(async (tx) => {
      for (const statement of statements) await tx.execute(sql.raw(statement));
    });
    const rows = await s.sql(`select id, status, send_at from campaigns where id = any($1::uuid[]) order by status`, [
      [old.id, other.id],
    ]);
    expect(rows.map((r) => [r.id, r.status, r.send_at === null])).toEqual([
      [old.id, 'draft', true],
      [other.id, 'scheduled', false],
    ]);
  });
});
