import type { TAuditEntry } from '@yado/contracts/settings';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { describeActing, describeAction, describeChanges } from './auditText';

const entry = (over: Partial<TAuditEntry>): TAuditEntry => ({
  id: 1,
  at: '2026-05-03T06:04:00.000Z',
  actorEmail: 'brand.admin@demo.test',
  actingHostName: 'さくらホテルズ',
  actingHostLevel: 'brand',
  actingRole: 'admin',
  action: 'update',
  targetType: 'hotel',
  targetId: 'h1',
  targetName: 'さくらホテル 新宿',
  changes: null,
  hostNames: {},
  ...over,
});

const inBoth = async (fn: () => unknown) => {
  await i18next.changeLanguage('en');
  const en = fn();
  await i18next.changeLanguage('ja');
  const ja = fn();
  await i18next.changeLanguage('en');
  return { en, ja };
};

describe('the audit log in plain words', () => {
  it('says what happened to what, and who acted as whom, in both languages', async () => {
    const update = entry({
      changes: { name: ['さくらホテル 新宿', 'さくらホテル 新宿本館'], logoUrl: ['/a.png', '/b.png'] },
    });
    expect(await inBoth(() => describeAction(update, i18next.t))).toEqual({
      en: 'Updated hotel “さくらホテル 新宿”',
      ja: 'ホテル「さくらホテル 新宿」を更新しました',
    });
    expect(await inBoth(() => describeChanges(update, i18next.t))).toEqual({
      en: ['Name: さくらホテル 新宿 → さくらホテル 新宿本館', 'Logo: replaced'],
      ja: ['名称：さくらホテル 新宿 → さくらホテル 新宿本館', 'ロゴ：差し替え'],
    });
    expect(await inBoth(() => describeActing(update, i18next.t))).toEqual({
      en: 'Brand Admin, さくらホテルズ',
      ja: 'さくらホテルズのブランド管理者',
    });
  });

  it('tells connecting and disconnecting the booking system, and the hotel codes given by name', async () => {
    const connection = { targetType: 'booking_connection', targetId: 'DBK-100234', targetName: null };
    expect(await inBoth(() => describeAction(entry({ ...connection, action: 'connect' }), i18next.t))).toEqual({
      en: 'Connected to booking system account “DBK-100234”',
      ja: '予約システムのアカウント「DBK-100234」に接続しました',
    });
    expect(await inBoth(() => describeAction(entry({ ...connection, action: 'disconnect' }), i18next.t))).toEqual({
      en: 'Disconnected from booking system account “DBK-100234”',
      ja: '予約システムのアカウント「DBK-100234」との接続を解除しました',
    });
    const coded = entry({ changes: { bookingHotelCode: [null, 'SKR-SHINJUKU'] } });
    expect(await inBoth(() => describeChanges(coded, i18next.t))).toEqual({
      en: ['Booking system hotel code: (none) → SKR-SHINJUKU'],
      ja: ['予約システムのホテルコード：（なし） → SKR-SHINJUKU'],
    });
  });

  it('names roles, statuses and hosts, and lists personal fields by name only', () => {
    const t = i18next.t;
    const user = { targetType: 'user', targetName: '伊藤 健太', actingHostLevel: 'hotel' as const };
    expect(
      describeChanges(
        entry({ ...user, changes: { role: ['staff', 'viewer'], fields: ['nickName', 'phoneNumber'] } }),
        t,
      ),
    ).toEqual(['Role: Hotel Staff → Hotel Viewer', 'Changed: Nickname, Phone number']);
    expect(
      describeChanges(entry({ ...user, action: 'status_change', changes: { status: ['active', 'inactive'] } }), t),
    ).toEqual(['Status: Active → Inactive']);
    expect(describeAction(entry({ ...user, action: 'invite', changes: { role: 'viewer' } }), t)).toBe(
      'Invited user “伊藤 健太”',
    );
    const moved = entry({
      action: 'add_to_group',
      changes: { hotelGroupId: [null, 'g2'] },
      hostNames: { g2: '関西エリア' },
    });
    expect(describeChanges(moved, t)).toEqual(['Hotel group: (none) → 関西エリア']);
    expect(describeAction(moved, t)).toBe('Put hotel “さくらホテル 新宿” in a hotel group');
  });

  it('tells what a delete took along, and counts customers', () => {
    const t = i18next.t;
    const deleted = entry({
      action: 'delete',
      targetType: 'brand',
      targetId: 'b1',
      targetName: null,
      changes: { name: '富士リゾーツ', deletedHostIds: ['b1', 'h9'], releasedHotelIds: [] },
      hostNames: { h9: '富士ホテル' },
    });
    expect(describeAction(deleted, t)).toBe('Deleted brand “富士リゾーツ”');
    expect(describeChanges(deleted, t)).toEqual(['Deleted with it: 富士ホテル']);
    const unsubscribed = entry({
      action: 'email_status_change',
      targetType: 'customer',
      targetId: '3 customers',
      targetName: null,
      changes: { emailStatus: 'unsubscribed', ids: ['a', 'b', 'c'] },
    });
    expect(describeAction(unsubscribed, t)).toBe('Changed the email status of 3 customers');
    expect(describeChanges(unsubscribed, t)).toEqual(['Email status: Unsubscribed']);
  });

  it('falls back to the codes it does not know, never to raw JSON', () => {
    const t = i18next.t;
    const odd = entry({
      action: 'archive',
      targetType: 'segment',
      targetName: null,
      changes: { colour: ['red', 'blue'], nested: { a: 1 } },
    });
    expect(describeAction(odd, t)).toBe('archive: segment');
    const lines = describeChanges(odd, t);
    expect(lines).toEqual(['colour: red → blue', 'nested: changed']);
    expect(lines.join()).not.toContain('{');
    expect(describeChanges(entry({ changes: 'text' }), t)).toEqual([]);
  });

  it('names a domain and says how each DNS record was found when it was verified', async () => {
    const verify = entry({
      action: 'verify',
      targetType: 'sending_domain',
      targetName: null,
      changes: { domain: 'sakura-hotels.example.jp', state: 'in_verification', records: { spf: 'correct', dkim: 'missing' } },
    });
    expect(await inBoth(() => describeAction(verify, i18next.t))).toEqual({
      en: 'Verified the DNS records of domain “sakura-hotels.example.jp”',
      ja: 'ドメイン「sakura-hotels.example.jp」の DNS レコードを確認しました',
    });
    expect(await inBoth(() => describeChanges(verify, i18next.t))).toEqual({
      en: ['State: In verification', 'Records: SPF: Correct, DKIM: Missing'],
      ja: ['状態：認証中', 'レコード：SPF: 正しい、DKIM: 未登録'],
    });
  });
});

describe('a guest’s own unsubscribe (tracking)', () => {
  it('reads as the guest’s act, with how, in both languages', async () => {
    const unsubscribe = entry({
      actorEmail: null,
      actingHostName: null,
      actingHostLevel: null,
      actingRole: null,
      action: 'guest_unsubscribe',
      targetType: 'customer',
      targetId: 'c1',
      targetName: null,
      changes: { emailStatus: ['active', 'unsubscribed'], source: 'one_click' },
    });
    expect(await inBoth(() => describeAction(unsubscribe, i18next.t))).toEqual({
      en: 'The guest (customer) unsubscribed from all of the brand’s email',
      ja: 'ゲスト（顧客）がブランドのすべてのメール配信を停止しました',
    });
    expect(await inBoth(() => describeChanges(unsubscribe, i18next.t))).toEqual({
      en: ['Email status: Active → Unsubscribed', 'How: One-click unsubscribe in the mail client'],
      ja: ['メールステータス：有効 → 配信停止', '方法：メールアプリのワンクリック配信停止'],
    });
    expect(describeActing(unsubscribe, i18next.t)).toBe('-');
  });
});
