import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCountryCode } from '@yado/contracts';
import { DEMO, startTestServer, type TTestServer } from '../../test/harness.ts';

let s: TTestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('location lists', () => {
  it('list about 200 countries, Japan first, with calling code, names in both languages and a flag that is served', async () => {
    const { token } = await s.login(DEMO.hotelViewer);
    const res = await s.call('GET', '/v1/locations/countries', { token });
    expect(res.status).toBe(200);
    const countries = res.body.data as {
      code: string;
      callingCode: string;
      name: { ja: string; en: string };
      flagUrl: string;
    }[];
    expect(countries.length).toBeGreaterThan(200);
    expect(countries[0]).toMatchObject({ code: 'JP', callingCode: '81', name: { ja: '日本', en: 'Japan' } });
    expect(countries.find((c) => c.code === 'US')).toMatchObject({ callingCode: '1', name: { en: 'United States' } });
    expect(countries.find((c) => c.code === 'KR')?.name.ja).toBe('韓国');
    expect(new Set(countries.map((c) => c.code)).size).toBe(countries.length);
    // The picker offers only the countries a customer may have (libphonenumber also lists AC, TA and XK).
    expect(countries.map((c) => c.code).filter((code) => !isCountryCode(code))).toEqual([]);

    const flag = await fetch(`${s.url}${countries[0]!.flagUrl}`);
    expect(flag.status).toBe(200);
    expect(flag.headers.get('content-type')).toBe('image/svg+xml');
    expect(await flag.text()).toContain('<svg');
    for (const name of ['jp.svg', '..%2F..%2Fpackage.json', 'ZZ.svg', 'JP.png']) {
      expect((await fetch(`${s.url}/files/flags/${name}`)).status, name).toBe(404);
    }
  });

  it("list Japan's 47 prefectures in JIS order, each with its cities and wards in both languages", async () => {
    const { token } = await s.login(DEMO.hotelStaff);
    const res = await s.call('GET', '/v1/locations/prefectures', { token });
    const prefectures = res.body.data as { code: string; name: { ja: string; en: string } }[];
    expect(prefectures).toHaveLength(47);
    expect(prefectures[0]).toEqual({ code: '01', name: { ja: '北海道', en: 'Hokkaido' } });
    expect(prefectures[12]).toEqual({ code: '13', name: { ja: '東京都', en: 'Tokyo' } });
    expect(prefectures[46]).toEqual({ code: '47', name: { ja: '沖縄県', en: 'Okinawa' } });

    const tokyo = (await s.call('GET', '/v1/locations/prefectures/13/cities', { token })).body.data as {
      name: { ja: string; en: string };
    }[];
    expect(tokyo).toContainEqual({ code: '13104', name: { ja: '新宿区', en: 'Shinjuku City' } });
    const kanagawa = (await s.call('GET', '/v1/locations/prefectures/14/cities', { token })).body.data as {
      name: { ja: string };
    }[];
    expect(kanagawa).toContainEqual({ code: '14100', name: { ja: '横浜市', en: 'Yokohama City' } });
    expect(kanagawa).toContainEqual({ code: '14382', name: { ja: '箱根町', en: 'Hakone Town' } });
    expect(kanagawa.find((c) => c.name.ja === '横浜市港北区')).toBeDefined();

    for (const code of ['00', '48', '1', 'tokyo']) {
      expect((await s.call('GET', `/v1/locations/prefectures/${code}/cities`, { token })).status, code).toBe(404);
    }
  });

  it('answer only signed-in users', async () => {
    expect((await s.call('GET', '/v1/locations/countries')).status).toBe(401);
    expect((await s.call('GET', '/v1/locations/prefectures/13/cities')).status).toBe(401);
  });
});
