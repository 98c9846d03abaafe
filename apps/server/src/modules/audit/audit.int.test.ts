import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';

let s: TTestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const idOf = async (slug: string) => (await s.sql('select id from hosts where slug = $1', [slug]))[0].id as string;

describe('the audit log', () => {
  it('shows the granduser who changed a hotel, as whom, and what changed, with names resolved', async () => {
    const grand = await s.login(DEMO.grand);
    const shinjuku = await idOf('sakura-shinjuku');
    const before = (await s.call('GET', `/v1/hotels/${shinjuku}`, { token: grand.token })).body.data;
    const edited = await s.call('PUT', `/v1/hotels/${shinjuku}`, {
      token: grand.token,
      body: { name: 'さくらホテル 新宿本館', address: before.address, phone: before.phone, logoUrl: before.logoUrl },
    });
    expect(edited.status).toBe(200);
    const kansai = await idOf('sakura-kansai');
    expect(
      (
        await s.call('PUT', `/v1/hotels/${shinjuku}/hotel-group`, {
          token: grand.token,
          body: { hotelGroupId: kansai },
        })
      ).status,
    ).toBe(200);

    const log = await s.call('GET', `/v1/audit?hostId=${shinjuku}`, { token: grand.token });
    expect(log.status).toBe(200);
    const [moved, update] = log.body.data;
    expect(update).toMatchObject({
      actorEmail: DEMO.grand,
      actingHostName: 'Yado',
      actingHostLevel: 'grand_user',
      actingRole: 'granduser',
      action: 'update',
      targetType: 'hotel',
      targetId: shinjuku,
      targetName: 'さくらホテル 新宿本館',
      changes: { name: ['さくらホテル 新宿', 'さくらホテル 新宿本館'] },
    });
    expect(new Date(update.at).getTime()).not.toBeNaN();
    expect(moved).toMatchObject({
      action: 'add_to_group',
      hostNames: { [kansai]: '関西エリア', [await idOf('sakura-kanto')]: '関東エリア' },
    });
    // The brand's log holds what happened below it too.
    const brandLog = await s.call('GET', `/v1/audit?hostId=${await idOf('sakura-hotels')}`, { token: grand.token });
    expect(brandLog.body.data.map((e: { id: number }) => e.id)).toEqual(expect.arrayContaining([moved.id, update.id]));
    // Another brand's log does not.
    const harborLog = await s.call('GET', `/v1/audit?hostId=${await idOf('harbor-view')}`, { token: grand.token });
    expect(harborLog.body.data.map((e: { id: number }) => e.id)).not.toContain(update.id);
  });

  it('pages with a keyset cursor: each page older than the last id of the one before, none twice', async () => {
    const { token } = await s.login(DEMO.grand);
    const all = (await s.call('GET', '/v1/audit?limit=200', { token })).body.data.map((e: { id: number }) => e.id);
    expect(all.length).toBeGreaterThanOrEqual(2);
    const first = (await s.call('GET', '/v1/audit?limit=1', { token })).body.data;
    const second = (await s.call('GET', `/v1/audit?limit=1&before=${first[0].id}`, { token })).body.data;
    expect([first[0].id, second[0].id]).toEqual(all.slice(0, 2));
    const past = (await s.call('GET', `/v1/audit?before=${all.at(-1)}`, { token })).body.data;
    expect(past).toEqual([]);
    expect((await s.call('GET', '/v1/audit?hostId=00000000-0000-4000-8000-000000000000', { token })).status).toBe(404);
  });

  it('lists newest first by when each entry happened, though recorded in another order, and pages so', async () => {
    const { token } = await s.login(DEMO.grand);
    const brand = await idOf('sakura-hotels');
    // Recorded in this order, happened in another (as the demo history's past unsubscribes are).
    const recorded = await s.sql(
      `insert into audit_log (at, brand_id, action, target_type, target_id)
       select now() + make_interval(days => 400 + v.day), $1, 'order_check', 'customer', v.day::text
       from unnest(array[2, 5, 1, 4, 3]) with ordinality as v(day, n) order by v.n
       returning id, target_id`,
      [brand],
    );
    expect(recorded.map((r) => r.target_id)).toEqual(['2', '5', '1', '4', '3']);
    const shown = async (query: string) =>
      ((await s.call('GET', `/v1/audit?${query}`, { token })).body.data as { id: number; targetId: string }[]).filter(
        (e) => recorded.some((r) => Number(r.id) === e.id),
      );
    const page = await shown(`hostId=${brand}&limit=5`);
    expect(page.map((e) => e.targetId)).toEqual(['5', '4', '3', '2', '1']);
    expect((await shown('limit=5')).map((e) => e.targetId)).toEqual(['5', '4', '3', '2', '1']);
    // Page by page: after "4" come "3", "2" and "1", whatever their ids.
    const after4 = await shown(`hostId=${brand}&limit=3&before=${page[1]!.id}`);
    expect(after4.map((e) => e.targetId)).toEqual(['3', '2', '1']);
  });

  it('records the role change of a user and only the names of the personal fields that changed', async () => {
    const admin = await s.login(DEMO.hotelAdmin);
    const [staff] = await s.sql('select id from users where email = $1', [DEMO.hotelStaff]);
    const res = await s.call('PUT', `/v1/users/${staff.id}`, {
      token: admin.token,
      body: { fullName: '伊藤 健太', nickName: 'けんちゃん', phoneNumber: '080-9999-0000', role: 'viewer' },
    });
    expect(res.status).toBe(200);
    const grand = await s.login(DEMO.grand);
    const log = await s.call('GET', `/v1/audit?hostId=${await idOf('sakura-shinjuku')}`, { token: grand.token });
    const entry = log.body.data.find(
      (e: { targetId: string; action: string }) => e.targetId === staff.id && e.action === 'update',
    );
    expect(entry).toMatchObject({
      actorEmail: DEMO.hotelAdmin,
      actingHostLevel: 'hotel',
      actingRole: 'admin',
      targetType: 'user',
      targetName: '伊藤 健太',
    });
    expect(entry.changes).toEqual({ role: ['staff', 'viewer'], fields: ['nickName', 'phoneNumber'] });
    const stored = JSON.stringify(await s.sql('select changes from audit_log'));
    expect(stored).not.toContain('09099990000');
    expect(stored).not.toContain('けんちゃん');
  });

  it('is the granduser’s alone: admins, staff and viewers at every level and of another brand are refused', async () => {
    const shinjuku = await idOf('sakura-shinjuku');
    for (const email of [
      DEMO.brandAdmin,
      DEMO.groupAdmin,
      DEMO.hotelAdmin,
      DEMO.hotelStaff,
      DEMO.hotelViewer,
      DEMO.harborAdmin,
    ]) {
      const { token } = await s.login(email);
      expect((await s.call('GET', '/v1/audit', { token })).status, email).toBe(403);
      expect((await s.call('GET', `/v1/audit?hostId=${shinjuku}`, { token })).status, email).toBe(403);
    }
    expect((await s.call('GET', '/v1/audit')).status).toBe(401);
  });

  it('names the guest and the campaign an entry is about instead of their ids, as they are named now', async () => {
    const admin = await s.login(DEMO.brandAdmin);
    const brand = await idOf('sakura-hotels');
    const made = await s.call('POST', '/v1/customers', {
      token: admin.token,
      body: {
        firstName: '浩',
        lastName: '山田',
        phone: '09011112222',
        address: '東京都',
        hotelId: await idOf('sakura-shinjuku'),
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const guest = { id: made.body.data.id as string };
    const changed = await s.call('PUT', '/v1/customers/email-status', {
      token: admin.token,
      body: { ids: [guest.id], emailStatus: 'unsubscribed' },
    });
    expect(changed.status).toBe(200);
    // A guest's own unsubscribe, as the tracking path writes it: the campaign it came from by id.
    const drafted = await s.call('POST', '/v1/campaigns', { token: admin.token, body: { name: '箱根の冬のご案内' } });
    expect(drafted.status, JSON.stringify(drafted.body)).toBe(200);
    const campaign = drafted.body.data as { id: string; name: string };
    await s.sql(
      `insert into audit_log (at, brand_id, action, target_type, target_id, changes)
       values (now(), $1, 'guest_unsubscribe', 'customer', $2, $3::jsonb)`,
      [
        brand,
        guest.id,
        JSON.stringify({ emailStatus: ['active', 'unsubscribed'], source: 'link', campaignId: campaign.id }),
      ],
    );

    const grand = await s.login(DEMO.grand);
    const log = (await s.call('GET', `/v1/audit?hostId=${brand}`, { token: grand.token })).body.data;
    const manual = log.find(
      (e: { action: string; targetId: string }) => e.action === 'email_status_change' && e.targetId === guest.id,
    );
    expect(manual).toMatchObject({ targetType: 'customer', targetName: '山田 浩' });
    const own = log.find((e: { action: string }) => e.action === 'guest_unsubscribe');
    expect(own).toMatchObject({ targetName: '山田 浩', objectNames: { [campaign.id]: '箱根の冬のご案内' } });
  });
});
