import { domainToASCII } from 'node:url';
import { createSocket, type Socket } from 'node:dgram';
import dns2 from 'dns2';
import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';
import { recheckDomains } from './recheck-domains.ts';
import { canSend, dkimOptionsForSender, resolveSendingIdentity } from './email-settings.ts';

const AS = {
  hotel: { 'x-user-role': 'admin', 'x-host-slug': 'sakura-shinjuku', 'x-host-level': 'hotel' },
  group: { 'x-user-role': 'admin', 'x-host-slug': 'sakura-kanto', 'x-host-level': 'hotel_group' },
};

let s: TTestServer;
let admin: string;
let grand: string;
beforeAll(async () => {
  s = await startTestServer();
  // Tests wait for no countdown unless they check it.
  s.rt.config.sending.verifyCountdownSeconds = 0;
  admin = (await s.login(DEMO.brandAdmin)).token;
  grand = (await s.login(DEMO.grand)).token;
});
afterAll(async () => {
  await s?.close();
});

type TRecord = {
  kind: string;
  type: 'TXT' | 'CNAME';
  name: string;
  value: string;
  state: string;
  check: { result: string; found: string[]; problem: string | null } | null;
};

const add = (domain: string, token = admin, headers?: Record<string, string>) =>
  s.call('POST', '/v1/sending/domains', { token, headers, body: { domain } });
const verify = (id: string, token = admin) => s.call('POST', `/v1/sending/domains/${id}/verify`, { token });
const publish = (name: string, type: 'TXT' | 'CNAME', values: string[]) =>
  s.call('PUT', '/v1/dev/dns', { token: grand, body: { name, type, values } });
const publishAll = async (records: TRecord[]) => {
  for (const r of records) expect((await publish(r.name, r.type, [r.value])).status).toBe(200);
};
const byKind = (records: TRecord[], kind: string) => records.find((r) => r.kind === kind) as TRecord;

describe('adding a domain (step 1)', () => {
  it('takes Unicode, uppercase and a trailing dot, and stores punycode', async () => {
    const upper = await add('  Example-Ryokan.JP. ');
    expect(upper.status).toBe(200);
    expect(upper.body.data.domain).toBe('example-ryokan.jp');
    const idn = await add('さくら旅館.jp');
    expect(idn.status).toBe(200);
    expect(idn.body.data.domain).toBe(domainToASCII('さくら旅館.jp'));
    expect(idn.body.data.domain).toMatch(/^xn--[a-z0-9]+\.jp$/);
    expect(idn.body.data.displayName).toBe('さくら旅館.jp');
    expect(idn.body.data.records.map((r: TRecord) => [r.kind, r.type])).toEqual([
      ['spf', 'TXT'],
      ['dkim', 'TXT'],
      ['dmarc', 'TXT'],
      ['cname', 'CNAME'],
      ['ownership', 'TXT'],
    ]);
    expect(idn.body.data.state).toBe('unverified');
  });

  it('refuses what is not a domain with the specification message, never a 500', async () => {
    for (const bad of [
      '',
      'com',
      '192.168.0.1',
      '1.2.3',
      `${'a'.repeat(300)}.com`,
      `${'a'.repeat(64)}.com`,
      'http://hotel.jp/',
      'info@hotel.jp',
      'exa mple.jp',
      '-bad.jp',
      'hotel..jp',
      '"hotel.jp"',
    ]) {
      const res = await add(bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.fields.domain, bad).toEqual({
        code: 'domain_invalid',
        message: 'Please enter a valid domain',
      });
    }
  });

  it('refuses a domain that exists anywhere on the platform', async () => {
    expect((await add('shared-name.jp')).status).toBe(200);
    const again = await add('SHARED-name.jp');
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Oops! This domain already exists.');
    const harbor = (await s.login(DEMO.harborAdmin)).token;
    const other = await add('shared-name.jp', harbor);
    expect(other.status).toBe(409);
    expect(other.body.error.fields.domain.message).toBe('Oops! This domain already exists.');
  });

  it('never returns or logs the DKIM private key', async () => {
    const res = await add('secret-keys.jp');
    const [row] = await s.sql(`select dkim_private_key_encrypted from sending_domains where domain = 'secret-keys.jp'`);
    expect(row.dkim_private_key_encrypted).not.toContain('PRIVATE KEY');
    const text =
      JSON.stringify(res.body) + JSON.stringify((await s.call('GET', '/v1/sending/domains', { token: admin })).body);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain(row.dkim_private_key_encrypted);
    expect(s.logs.join('')).not.toContain('PRIVATE KEY');
  });
});

describe('verifying a domain against the embedded DNS server (step 2)', () => {
  it('locks "Verify DNS setup" behind the countdown after the records are shown and after each try', async () => {
    s.rt.config.sending.verifyCountdownSeconds = 120;
    const res = await add('countdown.jp');
    s.rt.config.sending.verifyCountdownSeconds = 0;
    expect(res.body.data.verifyInSeconds).toBeGreaterThan(110);
    const tooSoon = await verify(res.body.data.id);
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(110);
    expect(tooSoon.body.error.code).toBe('domain_verify_too_soon');
  });

  it('reports each record missing, then correct once published (a DKIM key split into strings is joined)', async () => {
    const { body } = await add('right.example.jp');
    const id = body.data.id as string;
    const first = await verify(id);
    expect(first.status).toBe(200);
    expect(first.body.data.state).toBe('in_verification');
    for (const r of first.body.data.records as TRecord[]) {
      expect(r.check?.result, r.kind).toBe('missing');
      expect(r.state).toBe('in_verification');
    }
    await publishAll(body.data.records);
    // The embedded DNS serves the 2048-bit key as several 255-byte strings, as real zones do.
    const dkim = byKind(body.data.records, 'dkim');
    const raw = await new Resolver();
    raw.setServers(s.rt.config.dns.servers as string[]);
    const chunks = (await raw.resolveTxt(dkim.name))[0] as string[];
    expect(chunks.length).toBeGreaterThan(1);
    const done = await verify(id);
    expect(done.body.data.state).toBe('verified');
    for (const r of done.body.data.records as TRecord[]) {
      expect(r.check?.result, r.kind).toBe('correct');
      expect(r.state).toBe('verified');
    }
    const audit = await s.sql(
      `select action, changes from audit_log where target_type = 'sending_domain' and target_id = $1 order by id`,
      [id],
    );
    expect(audit.map((a) => a.action)).toEqual(['create', 'verify', 'verify']);
    expect(audit[2].changes.state).toBe('verified');
  });

  it('tells wrong records from missing ones, shows what was found, and keeps a brand SPF that includes ours among others', async () => {
    const { body } = await add('wrong.example.jp');
    const records = body.data.records as TRecord[];
    const spf = byKind(records, 'spf');
    await publishAll(records);
    await publish(spf.name, 'TXT', ['v=spf1 include:_spf.google.com ~all']);
    await publish(byKind(records, 'cname').name, 'CNAME', ['elsewhere.example.net']);
    await publish(byKind(records, 'dkim').name, 'TXT', [`"${byKind(records, 'dkim').value}"`]);
    const res = await verify(body.data.id);
    const after = res.body.data.records as TRecord[];
    expect(res.body.data.state).toBe('in_verification');
    expect(byKind(after, 'spf').check).toMatchObject({
      result: 'wrong',
      found: ['v=spf1 include:_spf.google.com ~all'],
      problem: 'dns_spf_without_include',
    });
    // The brand's record with ours added, never "replace yours".
    expect(byKind(after, 'spf').value).toBe('v=spf1 include:_spf.google.com include:_spf.yado-mail.net ~all');
    expect(byKind(after, 'cname').check).toMatchObject({ result: 'wrong', found: ['elsewhere.example.net'] });
    expect(byKind(after, 'dkim').check).toMatchObject({ result: 'malformed', problem: 'dns_incorrect_format' });
    expect(byKind(after, 'dmarc').check?.result).toBe('correct');

    await publish(spf.name, 'TXT', [
      'v=spf1 include:_spf.google.com include:_spf.yado-mail.net -all',
      'google-site-verification=abc',
    ]);
    expect(byKind((await verify(body.data.id)).body.data.records, 'spf').check?.result).toBe('correct');
    await publish(spf.name, 'TXT', ['v=spf1 include:_spf.yado-mail.net ~all', 'v=spf1 include:_spf.google.com ~all']);
    expect(byKind((await verify(body.data.id)).body.data.records, 'spf').check).toMatchObject({
      result: 'malformed',
      problem: 'dns_two_spf_records',
    });
  });

  it('accepts a DMARC policy the brand already has', async () => {
    const { body } = await add('own-dmarc.example.jp');
    await publishAll(body.data.records);
    await publish(byKind(body.data.records, 'dmarc').name, 'TXT', [
      'v=DMARC1; p=reject; rua=mailto:security@own-dmarc.example.jp',
    ]);
    const kept = await verify(body.data.id);
    expect(kept.body.data.state).toBe('verified');
    // Theirs is what the console shows from now on: nothing asks to replace it.
    expect(byKind(kept.body.data.records, 'dmarc').value).toBe(
      'v=DMARC1; p=reject; rua=mailto:security@own-dmarc.example.jp',
    );
    await publish(byKind(body.data.records, 'dmarc').name, 'TXT', ['v=DMARC1; policy=none']);
    expect(byKind((await verify(body.data.id)).body.data.records, 'dmarc').check?.problem).toBe('dns_incorrect_format');
  });

  it('marks a verified domain whose records changed at the daily re-check', async () => {
    const { body } = await add('lapsing.example.jp');
    await publishAll(body.data.records);
    expect((await verify(body.data.id)).body.data.state).toBe('verified');
    await publish(byKind(body.data.records, 'dkim').name, 'TXT', []);
    const result = await recheckDomains(s.rt);
    expect(result.lapsed).toBeGreaterThanOrEqual(1);
    const res = await s.call('GET', `/v1/sending/domains/${body.data.id}`, { token: admin });
    expect(res.body.data.state).toBe('in_verification');
    expect(res.body.data.lapsedAt).not.toBeNull();
    expect(byKind(res.body.data.records, 'dkim').check?.result).toBe('missing');
  });

  describe('when DNS does not answer', () => {
    let silent: Socket;
    let servfail: ReturnType<typeof dns2.createUDPServer>;
    const servers = () => s.rt.config.dns.servers;
    let saved: string[] | null;
    beforeAll(async () => {
      saved = servers();
      silent = createSocket('udp4');
      await new Promise<void>((r) => silent.bind(0, '127.0.0.1', () => r()));
      servfail = dns2.createUDPServer((request, send) => {
        const response = dns2.Packet.createResponseFromRequest(request);
        response.header.rcode = 2;
        void send(response);
      });
      await new Promise<void>((r) => servfail.bind(0, '127.0.0.1', () => r()));
    });
    afterAll(() => {
      s.rt.config.dns.servers = saved;
      s.rt.config.dns.timeoutMs = 3000;
      silent.close();
      servfail.close();
    });

    it('says try again later on a timeout or SERVFAIL and marks nothing failed', async () => {
      const { body } = await add('flaky.example.jp');
      await publishAll(body.data.records);
      expect((await verify(body.data.id)).body.data.state).toBe('verified');
      s.rt.config.dns.timeoutMs = 200;
      for (const port of [silent.address().port, servfail.address().port]) {
        s.rt.config.dns.servers = [`127.0.0.1:${port}`];
        const res = await verify(body.data.id);
        expect(res.status).toBe(503);
        expect(res.body.error.code).toBe('dns_unavailable');
        await recheckDomains(s.rt);
        const now = await s.call('GET', `/v1/sending/domains/${body.data.id}`, { token: admin });
        expect(now.body.data.state).toBe('verified');
        expect(now.body.data.lapsedAt).toBeNull();
      }
    });
  });
});

describe('who may do what', () => {
  it('lets only the brand add, verify and remove; hotel admins read; staff and viewers have no access', async () => {
    const { body } = await add('roles.example.jp');
    const id = body.data.id as string;
    const hotel = await add('hotel-own.example.jp', admin, AS.hotel);
    expect(hotel.status).toBe(403);
    expect(hotel.body.error.code).toBe('domain_brand_only');
    expect((await s.call('POST', `/v1/sending/domains/${id}/verify`, { token: admin, headers: AS.group })).status).toBe(
      403,
    );
    const read = await s.call('GET', '/v1/sending/domains', { token: admin, headers: AS.hotel });
    expect(read.status).toBe(200);
    expect(read.body.data.canManage).toBe(false);
    expect(read.body.data.domains.map((d: { id: string }) => d.id)).toContain(id);
    for (const email of [DEMO.hotelStaff, DEMO.hotelViewer]) {
      const { token } = await s.login(email);
      expect((await s.call('GET', '/v1/sending/domains', { token })).status, email).toBe(403);
      expect((await add('staff.example.jp', token)).status, email).toBe(403);
      expect((await s.call('GET', '/v1/sending/settings', { token })).status, email).toBe(403);
    }
  });

  it("gives another brand's admin 404 for this brand's domain and nothing in lists", async () => {
    const { body } = await add('tenancy.example.jp');
    const id = body.data.id as string;
    const harbor = (await s.login(DEMO.harborAdmin)).token;
    expect((await s.call('GET', `/v1/sending/domains/${id}`, { token: harbor })).status).toBe(404);
    expect((await verify(id, harbor)).status).toBe(404);
    expect((await s.call('DELETE', `/v1/sending/domains/${id}`, { token: harbor })).status).toBe(404);
    expect((await s.call('GET', '/v1/sending/domains/not-a-uuid', { token: harbor })).status).toBe(404);
    const list = await s.call('GET', '/v1/sending/domains', { token: harbor });
    expect(JSON.stringify(list.body)).not.toContain('tenancy.example.jp');
    const removed = await s.call('DELETE', `/v1/sending/domains/${id}`, { token: admin });
    expect(removed.status).toBe(200);
    const [audit] = await s.sql(`select action from audit_log where target_id = $1 and action = 'delete'`, [id]);
    expect(audit.action).toBe('delete');
  });
});

describe('campaign email settings', () => {
  const base = {
    senderEmail: null,
    senderName: null,
    replyTo: null,
    unsubscribedMessage: null,
    unsubscribedMessageEn: null,
    footerSenderName: null,
    footerPostalAddress: null,
    defaultLanguage: null,
    frequencyCapCount: null,
    frequencyCapDays: null,
    quietHoursStart: null,
    quietHoursEnd: null,
  };

  it('requires sender name and unsubscribed message, and a sender on one of the brand domains', async () => {
    const empty = await s.call('PUT', '/v1/sending/settings', { token: admin, body: base });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields.senderName.message).toBe('Please fill out this field.');
    expect(empty.body.error.fields.unsubscribedMessage.message).toBe('Please fill out this field.');
    // An English message does not stand in for the Japanese one, which stays required.
    const englishOnly = await s.call('PUT', '/v1/sending/settings', {
      token: admin,
      body: { ...base, senderName: 'さくら', unsubscribedMessageEn: 'You have been unsubscribed.' },
    });
    expect(englishOnly.status).toBe(400);
    expect(englishOnly.body.error.fields.unsubscribedMessage.code).toBe('field_required');
    expect(englishOnly.body.error.fields.unsubscribedMessageEn).toBeUndefined();
    const foreign = await s.call('PUT', '/v1/sending/settings', {
      token: admin,
      body: { ...base, senderName: 'さくら', unsubscribedMessage: '停止しました', senderEmail: 'news@gmail.com' },
    });
    expect(foreign.body.error.fields.senderEmail.code).toBe('sender_domain_not_verified');
    const bad = await s.call('PUT', '/v1/sending/settings', {
      token: admin,
      body: { ...base, senderName: 'x', unsubscribedMessage: 'y', senderEmail: 'not an email' },
    });
    expect(bad.body.error.fields.senderEmail.message).toBe('Please enter a valid email');
  });

  it('refuses a frequency cap out of range and a quiet hours time not HH:MM, per field, and saves nothing', async () => {
    // Another brand's settings: this file's other tests read the first brand's from empty.
    const harbor = (await s.login(DEMO.harborAdmin)).token;
    const named = { ...base, senderName: 'ハーバー', unsubscribedMessage: '停止しました' };
    const put = (body: object) => s.call('PUT', '/v1/sending/settings', { token: harbor, body: { ...named, ...body } });
    const audited = async () =>
      (await s.sql(`select count(*)::int as n from audit_log where target_type = 'campaign_email_settings'`))[0].n;
    const before = await audited();
    for (const [field, value] of [
      ['frequencyCapCount', 0],
      ['frequencyCapCount', 101],
      ['frequencyCapCount', 2.5],
      ['frequencyCapDays', 0],
      ['frequencyCapDays', 400],
    ] as const) {
      const res = await put({ [field]: value });
      expect(res.status, `${field} ${value}`).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      // A code, which the console shows in the user's language beside the field with its range.
      expect(res.body.error.fields, `${field} ${value}`).toEqual({
        [field]: { code: 'frequency_cap_out_of_range', message: 'Enter a whole number within the range shown.' },
      });
    }
    for (const value of ['25:00', '9:00', '21:00:00', 'nine']) {
      const res = await put({ quietHoursStart: '22:00', quietHoursEnd: value });
      expect(res.status, value).toBe(400);
      expect(res.body.error.fields, value).toEqual({
        quietHoursEnd: { code: 'quiet_hours_time_invalid', message: 'Use the form HH:MM, for example 21:00.' },
      });
    }
    expect(await audited()).toBe(before);
    // The bounds themselves are taken, as they are, and an equal start and end (no quiet hours).
    const edges = await put({
      frequencyCapCount: 100,
      frequencyCapDays: 365,
      quietHoursStart: '00:00',
      quietHoursEnd: '00:00',
    });
    expect(edges.status).toBe(200);
    expect(edges.body.data.own).toMatchObject({
      frequencyCapCount: 100,
      frequencyCapDays: 365,
      quietHoursStart: '00:00',
      quietHoursEnd: '00:00',
    });
    expect((await put({ frequencyCapCount: 1, frequencyCapDays: 1 })).body.data.own).toMatchObject({
      frequencyCapCount: 1,
      frequencyCapDays: 1,
    });
  });

  it('inherits unset values from the brand, shows where from, and tells campaigns whether a host can send', async () => {
    const { body } = await add('send.example.jp');
    const saved = await s.call('PUT', '/v1/sending/settings', {
      token: admin,
      body: {
        ...base,
        senderName: 'さくらホテルズ',
        unsubscribedMessage: '配信を停止しました。',
        senderEmail: 'News@SEND.example.jp',
        footerSenderName: 'さくらホテルズ株式会社',
        footerPostalAddress: '東京都千代田区丸の内1-1-1',
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.own.senderEmail).toBe('News@send.example.jp');
    expect(saved.body.data.senderDomain).toEqual({ domain: 'send.example.jp', state: 'unverified' });
    expect(saved.body.data.problems).toContain('domain_not_verified');
    const [audit] = await s.sql(
      `select changes from audit_log where target_type = 'campaign_email_settings' order by id desc limit 1`,
    );
    expect(audit.changes.senderName).toEqual([null, 'さくらホテルズ']);
    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-shinjuku'`);
    expect(await canSend(s.rt, hotel.id)).toEqual({ ok: false, problems: ['domain_not_verified'] });

    const hotelView = await s.call('GET', '/v1/sending/settings', { token: admin, headers: AS.hotel });
    expect(hotelView.body.data.own.senderName).toBeNull();
    expect(hotelView.body.data.inherited.senderName).toBe('さくらホテルズ');
    expect(hotelView.body.data.inheritedFrom.senderName).toEqual({ level: 'brand', hostName: 'さくらホテルズ' });
    expect(hotelView.body.data.effective.frequencyCapCount).toBe(3);
    expect(hotelView.body.data.effective.quietHoursStart).toBe('21:00');
    const own = await s.call('PUT', '/v1/sending/settings', {
      token: admin,
      headers: AS.hotel,
      body: { ...base, senderName: 'さくらホテル 新宿', quietHoursStart: '22:00' },
    });
    expect(own.status).toBe(200);
    expect(own.body.data.effective.senderName).toBe('さくらホテル 新宿');
    expect(own.body.data.effective.unsubscribedMessage).toBe('配信を停止しました。');

    await publishAll(body.data.records);
    await verify(body.data.id);
    const resolved = await resolveSendingIdentity(s.rt, hotel.id);
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    expect(resolved.identity.from).toEqual({ name: 'さくらホテル 新宿', address: 'News@send.example.jp' });
    expect(resolved.identity.quietHours).toEqual({ start: '22:00', end: '08:00', timeZone: 'Asia/Tokyo' });
    expect(resolved.identity.dkim.domainName).toBe('send.example.jp');
    expect(resolved.identity.dkim.privateKey).toContain('PRIVATE KEY');

    const setup = await s.call('GET', '/v1/sending/setup', { token: admin });
    expect(setup.body.data.checklist.slice(0, 2)).toEqual([
      { item: 'sender', status: 'done' },
      { item: 'verified_domain', status: 'done' },
    ]);
  });

  it('keeps an optional English unsubscribed message, inherited brand → hotel group → hotel, else the Japanese one', async () => {
    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-shinjuku'`);
    const messageOf = async () => {
      const resolved = await resolveSendingIdentity(s.rt, hotel.id);
      if (!resolved.ok) throw new Error(`cannot send: ${resolved.problems.join(', ')}`);
      return resolved.identity.unsubscribedMessage;
    };
    // No English message anywhere: the hotel can send, and English falls back to the Japanese one.
    const groupView = await s.call('GET', '/v1/sending/settings', { token: admin, headers: AS.group });
    expect(groupView.body.data.inherited.unsubscribedMessageEn).toBeNull();
    expect(groupView.body.data.inheritedFrom.unsubscribedMessageEn).toEqual({ level: 'none', hostName: null });
    expect(groupView.body.data.canSend).toBe(true);
    expect(await messageOf()).toEqual({ ja: '配信を停止しました。', en: '配信を停止しました。' });

    // The brand's English message reaches the hotel; a blank one is stored as none.
    const brand = await s.call('GET', '/v1/sending/settings', { token: admin });
    const brandSaved = await s.call('PUT', '/v1/sending/settings', {
      token: admin,
      body: { ...brand.body.data.own, unsubscribedMessageEn: '  You have been unsubscribed.  ' },
    });
    expect(brandSaved.status).toBe(200);
    expect(brandSaved.body.data.own.unsubscribedMessageEn).toBe('You have been unsubscribed.');
    const [audit] = await s.sql(
      `select changes from audit_log where target_type = 'campaign_email_settings' order by id desc limit 1`,
    );
    expect(audit.changes.unsubscribedMessageEn).toEqual([null, 'You have been unsubscribed.']);
    const hotelView = await s.call('GET', '/v1/sending/settings', { token: admin, headers: AS.hotel });
    expect(hotelView.body.data.inherited.unsubscribedMessageEn).toBe('You have been unsubscribed.');
    expect(hotelView.body.data.inheritedFrom.unsubscribedMessageEn).toEqual({
      level: 'brand',
      hostName: 'さくらホテルズ',
    });
    expect(await messageOf()).toEqual({ ja: '配信を停止しました。', en: 'You have been unsubscribed.' });

    // The hotel group's own English message wins over the brand's for its hotels.
    const group = await s.call('PUT', '/v1/sending/settings', {
      token: admin,
      headers: AS.group,
      body: { ...groupView.body.data.own, unsubscribedMessageEn: 'Unsubscribed from the Kanto hotels.' },
    });
    expect(group.status).toBe(200);
    const underGroup = await s.call('GET', '/v1/sending/settings', { token: admin, headers: AS.hotel });
    expect(underGroup.body.data.effective.unsubscribedMessageEn).toBe('Unsubscribed from the Kanto hotels.');
    expect(underGroup.body.data.inheritedFrom.unsubscribedMessageEn).toEqual({
      level: 'hotel_group',
      hostName: groupView.body.data.hostName,
    });
    expect(await messageOf()).toEqual({ ja: '配信を停止しました。', en: 'Unsubscribed from the Kanto hotels.' });

    const blank = await s.call('PUT', '/v1/sending/settings', {
      token: admin,
      headers: AS.group,
      body: { ...groupView.body.data.own, unsubscribedMessageEn: '   ' },
    });
    expect(blank.body.data.own.unsubscribedMessageEn).toBeNull();
    expect(await messageOf()).toEqual({ ja: '配信を停止しました。', en: 'You have been unsubscribed.' });
  });

  it('signs mail from the verified domain so that an independent verifier finds dkim=pass', async () => {
    const [hotel] = await s.sql(`select id from hosts where slug = 'sakura-shinjuku'`);
    const resolved = await resolveSendingIdentity(s.rt, hotel.id);
    if (!resolved.ok) throw new Error(`cannot send: ${resolved.problems.join(', ')}`);
    const { identity } = resolved;
    await s.rt.mailer.sendMail({
      from: { name: identity.from.name, address: identity.from.address },
      to: 'guest-dkim@example.com',
      subject: 'DKIM テスト',
      text: 'こんにちは',
      dkim: identity.dkim,
    });
    const list = await s.call('GET', '/v1/dev/outbox?to=guest-dkim@example.com', { token: grand });
    const message = list.body.data[0];
    expect(message.headers.map((h: { key: string }) => h.key)).toContain('dkim-signature');
    const raw = await fetch(`${s.url}/v1/dev/outbox/${message.id}/raw`, {
      headers: { authorization: `Bearer ${grand}` },
    });
    expect(raw.headers.get('content-type')).toContain('message/rfc822');
    const source = Buffer.from(await raw.arrayBuffer());
    const resolver = new Resolver();
    resolver.setServers(s.rt.config.dns.servers as string[]);
    const result = await dkimVerify(source, {
      resolver: (name: string, type: string) =>
        type === 'TXT' ? resolver.resolveTxt(name) : resolver.resolve(name, type as 'A'),
    });
    expect(result.results[0]?.status.result).toBe('pass');
    expect(result.results[0]?.signingDomain).toBe('send.example.jp');
    // A campaign's own sender address is signed only on a verified domain of its brand.
    const [brand] = await s.sql(`select id from hosts where slug = 'sakura-hotels'`);
    const [harborBrand] = await s.sql(`select id from hosts where slug = 'harbor-view'`);
    expect((await dkimOptionsForSender(s.rt, brand.id, 'offers@SEND.example.jp'))?.domainName).toBe('send.example.jp');
    expect(await dkimOptionsForSender(s.rt, brand.id, 'offers@countdown.jp')).toBeNull();
    expect(await dkimOptionsForSender(s.rt, harborBrand.id, 'offers@send.example.jp')).toBeNull();
    const staff = (await s.login(DEMO.hotelStaff)).token;
    expect((await s.call('GET', `/v1/dev/outbox/${message.id}/raw`, { token: staff })).status).toBe(403);
  });
});
