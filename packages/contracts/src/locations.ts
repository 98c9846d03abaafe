import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';

/** A name in both languages of the console. */
export const ZBilingualName = z.object({ ja: z.string(), en: z.string() });

export const ZCountry = z.object({
  /** ISO 3166-1 alpha-2, as customers store it. */
  code: z.string().length(2),
  /** International calling code without the plus sign ("81"). */
  callingCode: z.string(),
  name: ZBilingualName,
  /** An SVG flag served with a long cache (emoji flags do not show on Windows). */
  flagUrl: z.string(),
});
export type TCountry = z.infer<typeof ZCountry>;

export const ZPrefecture = z.object({
  /** JIS X 0401 code, "01" (Hokkaido) to "47" (Okinawa). */
  code: z.string().length(2),
  /** Customers store the Japanese name (東京都), as the booking system and spreadsheets write it. */
  name: ZBilingualName,
});
export type TPrefecture = z.infer<typeof ZPrefecture>;

export const ZCity = z.object({
  /** Local government code (5 digits, without the check digit). */
  code: z.string(),
  /** Customers store the Japanese name (新宿区). */
  name: ZBilingualName,
});
export type TCity = z.infer<typeof ZCity>;

export const listCountries = defineEndpoint({
  method: 'GET',
  path: '/v1/locations/countries',
  summary: 'Countries with calling code, names in both languages and flag; Japan first, the rest by English name',
  response: envelope(z.array(ZCountry)),
});

export const listPrefectures = defineEndpoint({
  method: 'GET',
  path: '/v1/locations/prefectures',
  summary: "Japan's 47 prefectures in JIS order, in both languages",
  response: envelope(z.array(ZPrefecture)),
});

export const listCities = defineEndpoint({
  method: 'GET',
  path: '/v1/locations/prefectures/:code/cities',
  summary: 'The cities, wards, towns and villages of a prefecture (code 01 to 47), in both languages',
  response: envelope(z.array(ZCity)),
});
