import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';

/** A name in both languages of the console. */
export const ZBilingualName = z.object({ ja: z.string(), en: z.string() });

/**
 * ISO 3166-1 alpha-2: the 249 officially assigned codes, the only countries a customer can have
 * (the import and the customer form refuse any other two letters, such as ZZ, or UK for GB).
 * Intl.DisplayNames names a region but does not say whether a code exists, hence the list.
 */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  [
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ',
    'BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ',
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ',
    'DE DJ DK DM DO DZ',
    'EC EE EG EH ER ES ET',
    'FI FJ FK FM FO FR',
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY',
    'HK HM HN HR HT HU',
    'ID IE IL IM IN IO IQ IR IS IT',
    'JE JM JO JP',
    'KE KG KH KI KM KN KP KR KW KY KZ',
    'LA LB LC LI LK LR LS LT LU LV LY',
    'MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ',
    'NA NC NE NF NG NI NL NO NP NR NU NZ',
    'OM',
    'PA PE PF PG PH PK PL PM PN PR PS PT PW PY',
    'QA',
    'RE RO RS RU RW',
    'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ',
    'TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ',
    'UA UG UM US UY UZ',
    'VA VC VE VG VI VN VU',
    'WF WS',
    'YE YT',
    'ZA ZM ZW',
  ]
    .join(' ')
    .split(' '),
);

/** Whether `code` (upper case) is an ISO 3166-1 alpha-2 country. */
export const isCountryCode = (code: string): boolean => COUNTRY_CODES.has(code);

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
