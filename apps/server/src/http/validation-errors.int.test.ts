import { ERROR_MESSAGES } from '@yado/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_FAULT_CODES } from './issue-code.ts';
import { DEMO, startTestServer, type TResponse, type TTestServer } from '../test/harness.ts';

let s: TTestServer;
const tokens: Record<string, string> = {};
const token = async (email: string) => (tokens[email] ??= (await s.login(email)).token);

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const SOME_ID = '00000000-0000-4000-8000-000000000000';
/** zod's own English, which must never reach an answer (the console shows the catalogue's text). */
const ZOD_TEXT =
  /Invalid input|Invalid option|Invalid string|Invalid (UUID|ISO|discriminator)|expected \w+,|expected one of|Too big|Too small|Unrecognized key/;

/** The field codes of a 400 `validation_failed`, each message the catalogue's text of its code. */
function fieldCodes(res: TResponse<any>): Record<string, string> {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(JSON.stringify(res.body)).not.toMatch(ZOD_TEXT);
  expect(res.body.error).toMatchObject({ code: 'validation_failed', message: ERROR_MESSAGES.validation_failed });
  const codes: Record<string, string> = {};
  for (const [field, { code, message }] of Object.entries<{ code: string; message: string }>(res.body.error.fields)) {
    expect(Object.keys(ERROR_MESSAGES), field).toContain(code);
    expect(message, field).toBe(ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES]);
    codes[field] = code;
  }
  return codes;
}

describe('a request that does not fit its schema', () => {
  it('answers each wrongly typed field with a catalogue code', async () => {
    const webhook = await s.call('PUT', '/v1/deliverability/relay-webhooks/sendgrid', {
      token: await token(DEMO.brandAdmin),
      body: { secret: 123 },
    });
    expect(fieldCodes(webhook)).toEqual({ secret: 'value_wrong_type' });

    const login = await s.call('POST', '/v1/auth/login', { body: { email: ['a'], password: 12 } });
    expect(fieldCodes(login)).toEqual({ email: 'value_wrong_type', password: 'value_wrong_type' });
    const missing = await s.call('POST', '/v1/auth/login', { body: { email: null } });
    expect(fieldCodes(missing)).toEqual({ email: 'field_required', password: 'field_required' });
  });

  it('names a value too long, outside its choices, out of range or not a whole number', async () => {
    const t = await token(DEMO.hotelAdmin);
    const segment = await s.call('POST', '/v1/segments', {
      token: t,
      body: { name: 'x'.repeat(101), description: 5, type: 'weekly' },
    });
    expect(fieldCodes(segment)).toEqual({
      name: 'value_too_long',
      description: 'value_wrong_type',
      type: 'value_not_allowed',
    });
    const page = await s.call('GET', '/v1/campaigns?pageSize=500&page=abc&sort=cheapest', { token: t });
    expect(fieldCodes(page)).toEqual({
      pageSize: 'value_out_of_range',
      page: 'value_wrong_type',
      sort: 'value_not_allowed',
    });
    const fraction = await s.call('GET', '/v1/campaigns?page=1.5', { token: t });
    expect(fieldCodes(fraction)).toEqual({ page: 'value_not_integer' });
  });

  it('names a malformed email, an id that is not one and too many values by their place', async () => {
    const t = await token(DEMO.hotelAdmin);
    const testSend = await s.call('POST', `/v1/campaigns/${SOME_ID}/test-send`, {
      token: t,
      body: { emails: ['guest@example.jp', 'not an email'] },
    });
    expect(fieldCodes(testSend)).toEqual({ 'emails.1': 'invalid_email' });
    const tooMany = await s.call('POST', `/v1/campaigns/${SOME_ID}/test-send`, {
      token: t,
      body: { emails: Array.from({ length: 6 }, (_, i) => `guest${i}@example.jp`) },
    });
    expect(fieldCodes(tooMany)).toEqual({ emails: 'too_many_values' });
    const ids = await s.call('POST', '/v1/segments/add-members', {
      token: t,
      body: { segmentIds: ['segment-1'], customerIds: [SOME_ID] },
    });
    expect(fieldCodes(ids)).toEqual({ 'segmentIds.0': 'value_invalid_format' });
  });

  it('answers the checks made by the routes themselves with catalogue codes too', async () => {
    const brand = await token(DEMO.brandAdmin);
    const role = await s.call('GET', '/v1/auth/me', {
      token: brand,
      headers: { 'x-user-role': 'emperor', 'x-host-level': 'planet', 'x-host-slug': 'Not A Slug!' },
    });
    expect(fieldCodes(role)).toEqual({
      'x-user-role': 'value_not_allowed',
      'x-host-level': 'value_not_allowed',
      'x-host-slug': 'value_invalid_format',
    });
    const user = await s.call('POST', '/v1/users', {
      token: brand,
      body: {
        fullName: 'Sato Hanako',
        nickName: 'Hanako',
        email: 'hanako@example.jp',
        phoneNumber: '0312345678',
        role: 'emperor',
      },
    });
    expect(fieldCodes(user)).toEqual({ role: 'value_not_allowed' });
    const hotel = (await s.call('GET', '/v1/hotels', { token: brand })).body.data.items[0];
    const zone = await s.call('PUT', `/v1/hotels/${hotel.id}`, {
      token: brand,
      body: { name: 'Hotel', address: 'Kyoto', timezone: 'Mars/Olympus' },
    });
    expect(fieldCodes(zone).timezone).toBe('invalid_time_zone');
  });

  it('still answers a segment filter fault with the filter message and each fault’s place', async () => {
    const res = await s.call('POST', '/v1/segments/count', {
      token: await token(DEMO.hotelAdmin),
      body: { filter: { version: 1, join: 'and', groups: [] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'filter_invalid', message: ERROR_MESSAGES.filter_invalid });
    expect(JSON.stringify(res.body)).not.toMatch(ZOD_TEXT);
  });

  it('lists its codes in the OpenAPI document', async () => {
    const doc = await s.call('GET', '/v1/openapi.json');
    for (const code of SCHEMA_FAULT_CODES) expect(doc.body.info.description).toContain(code);
  });
});
