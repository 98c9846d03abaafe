import { EMAIL_RECEPTIONS } from '@yado/contracts/customer-imports';
import { RELAY_PROVIDERS } from '@yado/contracts/deliverability';
import { SETTINGS_FIELDS } from '@yado/contracts/sending';
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
  objectNames: {},
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
  it('names a campaign as it was named when the entry was written, not as it is named now', async () => {
    const made = entry({
      action: 'create',
      targetType: 'campaign',
      targetName: '冬の案内 改',
      changes: { name: '冬の案内' },
    });
    const renamed = entry({
      targetType: 'campaign',
      targetName: '冬の案内 改',
      changes: { name: ['冬の案内', '冬の案内 改'] },
    });
    const unnamed = entry({ action: 'cancel', targetType: 'campaign', targetName: '冬の案内 改', changes: null });
    expect(await inBoth(() => [made, renamed, unnamed].map((e) => describeAction(e, i18next.t)))).toEqual({
      en: ['Created campaign “冬の案内”', 'Updated campaign “冬の案内 改”', 'Cancelled campaign “冬の案内 改”'],
      ja: expect.any(Array),
    });
  });
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

  it('names campaigns and templates by the name they had, and says what was done to them, in both languages', async () => {
    const campaign = (action: string, changes: Record<string, unknown>) =>
      entry({ action, targetType: 'campaign', targetId: 'c1', targetName: null, changes });
    const said = async (e: TAuditEntry) => inBoth(() => describeAction(e, i18next.t));
    expect(await said(campaign('create', { name: '夏の特典' }))).toEqual({
      en: 'Created campaign “夏の特典”',
      ja: 'キャンペーン「夏の特典」を作成しました',
    });
    expect(
      await said(campaign('schedule', { name: '夏の特典', sendAt: '2099-07-01 10:00', timeZone: 'Asia/Tokyo' })),
    ).toEqual({
      en: 'Scheduled campaign “夏の特典”',
      ja: 'キャンペーン「夏の特典」の配信を予約しました',
    });
    expect(
      await inBoth(() =>
        describeChanges(
          campaign('schedule', { name: '夏の特典', sendAt: '2099-07-01 10:00', timeZone: 'Asia/Tokyo' }),
          i18next.t,
        ),
      ),
    ).toEqual({
      en: ['Send at: 2099-07-01 10:00', 'Time zone: Asia/Tokyo'],
      ja: ['配信日時：2099-07-01 10:00', 'タイムゾーン：Asia/Tokyo'],
    });
    expect(await said(campaign('send_now', { name: '夏の特典' }))).toEqual({
      en: 'Started sending campaign “夏の特典” now',
      ja: 'キャンペーン「夏の特典」を今すぐ配信しました',
    });
    expect(await said(campaign('unschedule', { name: '夏の特典' }))).toEqual({
      en: 'Put campaign “夏の特典” back to draft',
      ja: 'キャンペーン「夏の特典」を下書きに戻しました',
    });
    expect(await said(campaign('cancel', { name: '夏の特典' }))).toEqual({
      en: 'Cancelled campaign “夏の特典”',
      ja: 'キャンペーン「夏の特典」をキャンセルしました',
    });
    expect(await said(campaign('delete', { name: '夏の特典' }))).toEqual({
      en: 'Deleted campaign “夏の特典”',
      ja: 'キャンペーン「夏の特典」を削除しました',
    });
    // Renamed: named by its new name, the change on its own line.
    const renamed = campaign('update', { name: ['夏の特典', '夏の特典 2026'], fields: ['subject', 'recipients'] });
    expect(await said(renamed)).toEqual({
      en: 'Updated campaign “夏の特典 2026”',
      ja: 'キャンペーン「夏の特典 2026」を更新しました',
    });
    expect(await inBoth(() => describeChanges(renamed, i18next.t))).toEqual({
      en: ['Name: 夏の特典 → 夏の特典 2026', 'Changed: Subject, Recipients'],
      ja: ['名称：夏の特典 → 夏の特典 2026', '変更した項目：件名、配信対象'],
    });
    const copied = entry({
      action: 'duplicate',
      targetType: 'template',
      targetId: 't2',
      targetName: null,
      changes: { name: 'ご案内 (copy)', copyOf: 'ご案内' },
    });
    expect(await said(copied)).toEqual({
      en: 'Created template “ご案内 (copy)” as a copy',
      ja: 'テンプレート「ご案内 (copy)」を複製して作成しました',
    });
    expect(await inBoth(() => describeChanges(copied, i18next.t))).toEqual({
      en: ['Copy of: ご案内'],
      ja: ['複製元：ご案内'],
    });
  });

  it('names segments by the name they had when created, renamed or copied', async () => {
    const segment = (action: string, changes: Record<string, unknown>) =>
      entry({ action, targetType: 'segment', targetId: 's1', targetName: null, changes });
    const said = async (e: TAuditEntry) => inBoth(() => describeAction(e, i18next.t));
    expect(await said(segment('create', { name: '新宿の夏' }))).toEqual({
      en: 'Created segment “新宿の夏”',
      ja: 'セグメント「新宿の夏」を作成しました',
    });
    expect(await said(segment('update', { name: ['新宿の夏', '新宿の夏 2026'] }))).toEqual({
      en: 'Updated segment “新宿の夏 2026”',
      ja: 'セグメント「新宿の夏 2026」を更新しました',
    });
    expect(await said(segment('duplicate', { name: '新宿の夏 (copy)', copyOf: '新宿の夏' }))).toEqual({
      en: 'Created segment “新宿の夏 (copy)” as a copy',
      ja: 'セグメント「新宿の夏 (copy)」を複製して作成しました',
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
      action: 'merge',
      targetType: 'segment',
      targetName: null,
      changes: { colour: ['red', 'blue'], nested: { a: 1 } },
    });
    expect(describeAction(odd, t)).toBe('merge: segment');
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
      changes: {
        domain: 'sakura-hotels.example.jp',
        state: 'in_verification',
        records: { spf: 'correct', dkim: 'missing' },
      },
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
      ja: ['メール配信ステータス：有効 → 配信停止', '方法：メールアプリのワンクリック配信停止'],
    });
    expect(describeActing(unsubscribe, i18next.t)).toBe('-');
  });
});

describe('scenario and preset changes (automations)', () => {
  const scenario = (over: Partial<TAuditEntry>) =>
    entry({ targetType: 'scenario', targetId: 's1', targetName: null, ...over });

  it('name the scenario as it was recorded, and each action of section 4 as a sentence', async () => {
    const stop = scenario({ action: 'stop', changes: { name: '到着前のご案内', status: ['running', 'stopped'] } });
    expect(await inBoth(() => describeAction(stop, i18next.t))).toEqual({
      en: 'Stopped scenario “到着前のご案内”',
      ja: 'シナリオ「到着前のご案内」を停止しました',
    });
    expect(await inBoth(() => describeChanges(stop, i18next.t))).toEqual({
      en: ['Status: Running → Stopped'],
      ja: ['ステータス：実行中 → 停止'],
    });
    const run = scenario({ action: 'run', changes: { name: 'Birthday', status: ['draft', 'scheduled'] } });
    expect(await inBoth(() => describeAction(run, i18next.t))).toEqual({
      en: 'Ran scenario “Birthday”',
      ja: 'シナリオ「Birthday」を実行しました',
    });
    for (const action of ['restart', 'cancel', 'resume', 'restore', 'archive']) {
      const line = await inBoth(() => describeAction(scenario({ action, changes: { name: 'x' } }), i18next.t));
      expect(line.en).not.toContain(action);
      expect(line.ja).toContain('シナリオ「x」');
    }
  });

  it('an edit says the new name, what changed, and a copy where it came from', async () => {
    const edit = scenario({ action: 'update', changes: { name: ['旧', '新'], fields: ['graph', 'run'] } });
    expect(await inBoth(() => describeAction(edit, i18next.t))).toEqual({
      en: 'Updated scenario “新”',
      ja: 'シナリオ「新」を更新しました',
    });
    expect(await inBoth(() => describeChanges(edit, i18next.t))).toEqual({
      en: ['Name: 旧 → 新', 'Changed: Workflow, Run period'],
      ja: ['名称：旧 → 新', '変更した項目：ワークフロー、実行期間'],
    });
    const copy = scenario({ action: 'copy', changes: { name: '誕生日 (copy)', copiedFrom: '誕生日' } });
    expect(await inBoth(() => describeAction(copy, i18next.t))).toEqual({
      en: 'Created scenario “誕生日 (copy)” as a copy',
      ja: 'シナリオ「誕生日 (copy)」をコピーして作成しました',
    });
    expect(await inBoth(() => describeChanges(copy, i18next.t))).toEqual({
      en: ['Copied from: 誕生日'],
      ja: ['コピー元：誕生日'],
    });
    const preset = entry({
      action: 'delete',
      targetType: 'preset',
      targetId: 'p1',
      targetName: null,
      changes: { name: '🎂 誕生日' },
    });
    expect(await inBoth(() => describeAction(preset, i18next.t))).toEqual({
      en: 'Deleted preset “🎂 誕生日”',
      ja: 'プリセット「🎂 誕生日」を削除しました',
    });
  });
});

describe('names instead of ids', () => {
  it('names the guest and the campaign of an unsubscribe, never its ids, in both languages', async () => {
    const unsubscribe = entry({
      actorEmail: null,
      actingHostName: null,
      actingHostLevel: null,
      actingRole: null,
      action: 'guest_unsubscribe',
      targetType: 'customer',
      targetId: '0b6f2a52-6c1e-4f3e-9f57-2f2f6f1f0a02',
      targetName: '山田 浩',
      changes: { emailStatus: ['active', 'unsubscribed'], campaignId: '5f0c2a52-6c1e-4f3e-9f57-2f2f6f1f0a02' },
      objectNames: { '5f0c2a52-6c1e-4f3e-9f57-2f2f6f1f0a02': '箱根の冬のご案内' },
    });
    const action = await inBoth(() => describeAction(unsubscribe, i18next.t));
    expect(action.en).toContain('山田 浩');
    expect(action.ja).toContain('山田 浩');
    const lines = await inBoth(() => describeChanges(unsubscribe, i18next.t));
    expect(lines.en).toContain('Campaign: 箱根の冬のご案内');
    expect(lines.ja).toContain('キャンペーン：箱根の冬のご案内');
    expect(JSON.stringify(lines)).not.toContain('5f0c2a52');

    const gone = entry({ ...unsubscribe, objectNames: {} });
    const goneLines = await inBoth(() => describeChanges(gone, i18next.t));
    expect(JSON.stringify(goneLines)).not.toContain('5f0c2a52');
    expect(goneLines.en).toContain('Campaign: (deleted)');
  });
});

describe('A/B tests and campaign protection (issues 25, 26)', () => {
  it('say how a winner was chosen and on what, and name the protection settings, in both languages', async () => {
    const decided = entry({
      action: 'decide_winner',
      targetType: 'campaign',
      targetName: null,
      changes: { name: '冬の案内', winner: 'B', how: 'significant', metric: 'clicks', pValue: 0.01, lift: 0.2 },
    });
    const picked = entry({
      action: 'pick_winner',
      targetType: 'campaign',
      targetName: null,
      changes: { name: '冬の案内', winner: 'C', how: 'manual' },
    });
    const protection = entry({
      targetType: 'campaign_email_settings',
      changes: { pauseHardBouncePct: [5, 4], pauseComplaintPct: [0.3, 0.2], pauseMinSent: [1000, 500] },
    });
    const texts = await inBoth(() => [
      describeAction(decided, i18next.t),
      ...describeChanges(decided, i18next.t),
      ...describeChanges(picked, i18next.t),
      ...describeChanges(protection, i18next.t),
    ]);
    expect(texts.en).toEqual([
      'The A/B test of campaign “冬の案内” was decided',
      'Winner: B',
      'Decided by: A significant result (95%)',
      'Judged on: Unique clicks',
      'p-value: 0.01',
      'Lift: 0.2',
      'Winner: C',
      'Decided by: By hand',
      'Protection: pause at hard bounces (%): 5 → 4',
      'Protection: pause at complaints (%): 0.3 → 0.2',
      'Protection: sent before judging: 1000 → 500',
    ]);
    for (const text of texts.ja as string[]) expect(text).not.toMatch(/[a-z]{3,}/);
  });

  it('names a relay webhook by its service and says what changed, never a code, in both languages', async () => {
    const relay = (action: string, changes: Record<string, unknown>) =>
      entry({ action, targetType: 'relay_webhook', targetId: 'w1', targetName: null, changes });
    // As webhook-settings.ts writes them: set up, its secret replaced, its SNS topic changed, removed.
    const created = relay('create', { provider: 'sendgrid', created: true, secret: 'changed' });
    const topic = relay('update', { provider: 'ses', topicArn: [null, 'arn:aws:sns:ap-northeast-1:1:yado'] });
    const removed = relay('delete', { provider: 'mailgun' });
    const said = (e: TAuditEntry) => inBoth(() => [describeAction(e, i18next.t), ...describeChanges(e, i18next.t)]);
    expect(await said(created)).toEqual({
      en: ['Created relay webhook “SendGrid”', 'Signing key or password: changed'],
      ja: ['リレー Webhook「SendGrid」を作成しました', '署名キーまたはパスワード：変更あり'],
    });
    expect(await said(topic)).toEqual({
      en: ['Updated relay webhook “Amazon SES”', 'SNS topic ARN: (none) → arn:aws:sns:ap-northeast-1:1:yado'],
      ja: [
        'リレー Webhook「Amazon SES」を更新しました',
        'SNS トピック ARN：（なし） → arn:aws:sns:ap-northeast-1:1:yado',
      ],
    });
    expect(await said(removed)).toEqual({
      en: ['Deleted relay webhook “Mailgun”'],
      ja: ['リレー Webhook「Mailgun」を削除しました'],
    });
    // Every service has its name, and the service reads as a name where another target names it.
    for (const provider of RELAY_PROVIDERS) {
      const lines = await inBoth(() => describeChanges(entry({ changes: { provider } }), i18next.t));
      for (const line of [lines.en, lines.ja].flat() as string[]) expect(line.endsWith(provider), line).toBe(false);
    }
  });

  it('has a label in both languages for every field the settings write to the audit log', async () => {
    // The settings' own lists (contracts) and the fields each settings operation writes by name.
    const written = [
      ...SETTINGS_FIELDS, // campaign_email_settings: its diff
      ...['pause_min_sent', 'pause_hard_bounce_pct', 'pause_complaint_pct'], // protection
      ...['provider', 'secret', 'topicArn'], // relay_webhook
      ...['name', 'address', 'email', 'phone', 'logoUrl', 'bookingHotelCode', 'hotelGroupId'], // host information
      ...['role', 'status', 'firstName', 'lastName', 'nickName', 'phoneNumber'], // users
      ...['domain', 'state', 'records'], // sending_domain
      'conversionWindowDays', // tracking_settings
      'reason', // suppression
    ];
    const unlabelled: string[] = [];
    for (const language of ['en', 'ja']) {
      await i18next.changeLanguage(language);
      for (const key of written) {
        const textKey = `audit.fields.${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
        if (!i18next.exists(textKey)) unlabelled.push(`${language}: ${key}`);
      }
    }
    await i18next.changeLanguage('en');
    expect(unlabelled).toEqual([]);
  });
});

describe('a customer import (apply-import.ts)', () => {
  const HOTEL = '0b6f0d6e-8f0a-4c43-9d4e-1c1a2b3c4d5e';
  const SEGMENT = '5e2d9c1a-7b3f-4e8d-a1c2-9f8e7d6c5b4a';
  const imported = (changes: Record<string, unknown>) =>
    entry({
      actingHostLevel: 'hotel',
      actingHostName: 'さくらホテル 新宿',
      action: 'import',
      targetType: 'customer_import',
      targetId: '7d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a',
      targetName: null,
      changes,
      hostNames: { [HOTEL]: 'さくらホテル 新宿' },
      objectNames: { [SEGMENT]: '冬の常連' },
    });

  it('reads as a sentence naming the file, then the rows added, updated and skipped, the hotel, segment and consent', async () => {
    const full = imported({
      fileName: 'guests.csv',
      inserted: 3,
      updated: 1,
      unchanged: 2,
      allocated: 3,
      failed: 3,
      duplicates: 1,
      emailReception: 'booking',
      hotelId: HOTEL,
      segmentId: SEGMENT,
      segmentAdded: 4,
    });
    expect(await inBoth(() => describeAction(full, i18next.t))).toEqual({
      en: 'Imported customers from “guests.csv”',
      ja: '「guests.csv」から顧客をインポートしました',
    });
    expect(await inBoth(() => describeChanges(full, i18next.t))).toEqual({
      en: [
        'Customers added: 3',
        'Customers updated: 1',
        'Rows without changes: 2',
        'Rows skipped: 4 (3 with errors, 1 repeated in the file)',
        'Hotel: さくらホテル 新宿',
        'Customers newly allocated to the hotel: 3',
        'Segment: 冬の常連',
        'Customers added to the segment: 4',
        'Email consent: Agreed when booking',
      ],
      ja: [
        '追加した顧客：3',
        '更新した顧客：1',
        '変更のない行：2',
        'スキップした行：4（エラー 3、ファイル内の重複 1）',
        'ホテル：さくらホテル 新宿',
        'ホテルに新たに割り当てた顧客：3',
        'セグメント：冬の常連',
        'セグメントに追加した顧客：4',
        'メール受信の同意：予約時に同意を得た',
      ],
    });
  });

  it('never shows a key, an id or a code, even for entries written before the file was named or unknown fields', async () => {
    const older = imported({
      inserted: 0,
      updated: 2,
      unchanged: 0,
      allocated: 0,
      failed: 0,
      duplicates: 0,
      emailReception: 'not_given',
      hotelId: null,
      segmentId: null,
      segmentAdded: null,
      laterField: 'x',
    });
    const said = await inBoth(() => [describeAction(older, i18next.t), ...describeChanges(older, i18next.t)]);
    expect(said.en).toEqual([
      'Imported customers from a file',
      'Customers added: 0',
      'Customers updated: 2',
      'Rows without changes: 0',
      'Rows skipped: 0 (0 with errors, 0 repeated in the file)',
      'Email consent: No consent: added as unsubscribed',
    ]);
    // A hotel deleted since, and a consent this console has no text for.
    const gone = imported({
      fileName: 'a.csv',
      hotelId: 'c0ffee00-0000-4000-8000-000000000000',
      emailReception: 'fax',
    });
    const goneSaid = await inBoth(() => describeChanges(gone, i18next.t));
    expect(goneSaid.en).toEqual(['Hotel: (unknown)', 'Email consent: (details)']);
    const text = JSON.stringify([said, goneSaid]);
    for (const raw of [
      'laterField',
      'hotelId',
      'emailReception',
      'not_given',
      'fax',
      'c0ffee00',
      'import:',
      'customer_import',
    ])
      expect(text).not.toContain(raw);
  });

  it('has a text in both languages for every email consent an import records', async () => {
    const missing: string[] = [];
    for (const language of ['en', 'ja']) {
      await i18next.changeLanguage(language);
      for (const reception of EMAIL_RECEPTIONS)
        if (!i18next.exists(`audit.import.receptions.${reception}`)) missing.push(`${language}: ${reception}`);
    }
    await i18next.changeLanguage('en');
    expect(missing).toEqual([]);
  });
});
