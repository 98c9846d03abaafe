import { formatDay } from './calendar.ts';
import { FOREIGN_ORIGINS, ROMANISED_FAMILY, type TForeignOrigin } from './data/foreign-names.ts';
import { FAMILY_NAMES, FEMALE_GIVEN_NAMES, MALE_GIVEN_NAMES, type TNameEntry } from './data/japanese-names.ts';
import { BUILDING_NAMES, PREFECTURES, TOWN_NAMES } from './data/places.ts';
import type { TRandom } from './random.ts';
import type { TGuest } from './types.ts';

/** A guest's profile: everything but the id and the timestamps, which the account's history assigns. */
export type TGuestProfile = Omit<TGuest, 'id' | 'created_at' | 'updated_at'>;

/**
 * Addresses end in example.com/.net/.org (RFC 2606) so that no simulated guest can ever be a
 * real mailbox, even if someone points Yado at a real SMTP relay. The sub-domains only make the
 * lists look like the webmail and carrier mix of a Japanese guest list.
 */
const EMAIL_DOMAINS: readonly (readonly [string, number])[] = [
  ['gmail.example.com', 30],
  ['yahoo.example.com', 18],
  ['icloud.example.com', 12],
  ['docomo.example.net', 10],
  ['ezweb.example.net', 7],
  ['softbank.example.net', 5],
  ['outlook.example.com', 8],
  ['nifty.example.org', 3],
  ['corp.example.org', 7],
];
const EMAIL_WORDS = ['sakura', 'sora', 'umi', 'hoshi', 'neko', 'happy', 'smile', 'tabi', 'onsen', 'mikan'];
const JP_LANDLINE_AREAS = ['03', '06'];
const FULL_WIDTH_OFFSET = 0xff10 - 0x30;

/**
 * Makes guest profiles for one account. It owns the account's phone and email registries so
 * that two guests never share a phone number or an address by accident: sharing happens only
 * where the simulator means it (couples sharing an email, duplicate profiles of one person).
 */
export class GuestFactory {
  private phoneSerial = 0;
  private readonly emailsInUse = new Set<string>();

  constructor(
    private readonly accountSalt: number,
    private readonly foreignShare: number,
  ) {}

  /** A new guest; `referenceDay` anchors their age. */
  createProfile(random: TRandom, referenceDay: number): TGuestProfile {
    return random.chance(this.foreignShare)
      ? this.createForeignProfile(
          random,
          random.weighted(FOREIGN_ORIGINS.map((o) => [o, o.weight] as const)),
          referenceDay,
        )
      : this.createJapaneseProfile(random, referenceDay);
  }

  /**
   * The guest's spouse or partner, booked alongside: same family name and home, their own
   * phone, and half the time the same email address (one inbox per household).
   */
  createPartnerProfile(random: TRandom, guest: TGuestProfile, referenceDay: number): TGuestProfile {
    const gender = guest.gender === 'female' ? 'male' : 'female';
    const japanese = guest.family_name_kana !== null;
    const given = japanese ? random.pick(gender === 'male' ? MALE_GIVEN_NAMES : FEMALE_GIVEN_NAMES) : null;
    const origin = japanese ? null : (FOREIGN_ORIGINS.find((o) => o.country === guest.country) ?? FOREIGN_ORIGINS[0]);
    const sharesEmail = guest.email !== null && random.chance(0.5);
    const ownGiven = given ? given[0] : random.pick(gender === 'male' ? origin!.maleNames : origin!.femaleNames);
    const familyRomaji = romajiOfFamily(guest);
    return {
      ...guest,
      given_name: ownGiven,
      given_name_kana: given ? given[1] : null,
      gender,
      birth_date: guest.birth_date === null ? null : this.birthDate(random, referenceDay),
      email: sharesEmail
        ? guest.email
        : random.chance(0.6)
          ? this.email(random, given ? given[2] : ownGiven, familyRomaji)
          : null,
      phone: japanese ? this.japanesePhone(random) : this.foreignPhone(random, origin!),
      newsletter_opt_in: random.chance(0.4),
    };
  }

  /**
   * The same person on file twice, as happens when an OTA creates a fresh guest record per
   * booking: same name and phone number, typed differently, often without the email.
   */
  createDuplicateProfile(random: TRandom, guest: TGuestProfile): TGuestProfile {
    return {
      ...guest,
      phone: guest.phone === null ? null : reformatPhone(random, guest.phone),
      email: random.chance(0.4) ? guest.email : null,
      birth_date: random.chance(0.5) ? guest.birth_date : null,
      newsletter_opt_in: false,
    };
  }

  /** A guest's profile some time later: a new email, a move, a new phone or a changed mind about mail. */
  changeProfile(random: TRandom, guest: TGuestProfile): TGuestProfile {
    const japanese = guest.country === 'JP';
    const change = random.weighted([
      ['email', 30],
      ['newsletter', 30],
      ['address', 25],
      ['phone', 15],
    ] as const);
    switch (change) {
      case 'email': {
        const given = guest.given_name_kana === null ? guest.given_name : romajiOfGiven(guest);
        return { ...guest, email: this.email(random, given, romajiOfFamily(guest)) };
      }
      case 'newsletter':
        return { ...guest, newsletter_opt_in: !guest.newsletter_opt_in };
      case 'address':
        return { ...guest, ...(japanese ? this.japaneseAddress(random) : this.changeForeignStreet(random, guest)) };
      case 'phone': {
        const origin = FOREIGN_ORIGINS.find((o) => o.country === guest.country);
        return {
          ...guest,
          phone: japanese || !origin ? this.japanesePhone(random) : this.foreignPhone(random, origin),
        };
      }
    }
  }

  private createJapaneseProfile(random: TRandom, referenceDay: number): TGuestProfile {
    // Favour the front of the frequency-ordered list: the squared roll skews towards 佐藤 and 鈴木.
    const family = FAMILY_NAMES[Math.floor(random.next() ** 2 * FAMILY_NAMES.length)] as TNameEntry;
    const named = random.chance(0.5) ? 'male' : 'female';
    const given = random.pick(named === 'male' ? MALE_GIVEN_NAMES : FEMALE_GIVEN_NAMES);
    // A few booking forms leave the gender unanswered whatever the name suggests.
    const gender = random.chance(0.03) ? 'unspecified' : named;
    // About one guest in twenty-five books through an OTA that passes on no address at all.
    const address = random.chance(0.04)
      ? { postal_code: null, prefecture: null, city: null, address: null }
      : this.japaneseAddress(random);
    return {
      family_name: family[0],
      given_name: given[0],
      family_name_kana: family[1],
      given_name_kana: given[1],
      gender,
      birth_date: random.chance(0.88) ? this.birthDate(random, referenceDay) : null,
      email: random.chance(0.86) ? this.email(random, given[2], family[2]) : null,
      phone: random.chance(0.02) ? null : this.japanesePhone(random),
      country: 'JP',
      ...address,
      language: 'ja',
      newsletter_opt_in: random.chance(0.55),
    };
  }

  private createForeignProfile(random: TRandom, origin: TForeignOrigin, referenceDay: number): TGuestProfile {
    const named = random.chance(0.5) ? 'male' : 'female';
    const family = random.pick(origin.familyNames);
    const given = random.pick(named === 'male' ? origin.maleNames : origin.femaleNames);
    const place = random.int(0, origin.cities.length - 1);
    const city = origin.cities[place] as string;
    const street = origin.streets[place % origin.streets.length] as string;
    const latinFamily = origin.script === 'latin' ? family : (ROMANISED_FAMILY[family] ?? 'guest');
    const latinGiven = origin.script === 'latin' ? given : `${latinFamily}${random.int(1, 99)}`;
    return {
      family_name: family,
      given_name: given,
      family_name_kana: null,
      given_name_kana: null,
      gender: random.chance(0.05) ? 'unspecified' : named,
      birth_date: random.chance(0.7) ? this.birthDate(random, referenceDay) : null,
      email: random.chance(0.96) ? this.email(random, latinGiven, latinFamily) : null,
      phone: random.chance(0.03) ? null : this.foreignPhone(random, origin),
      country: origin.country,
      postal_code: random.chance(0.6) ? String(random.int(10000, 99999)) : null,
      prefecture: null,
      city,
      address: streetAddress(street, random.int(1, 2400)),
      language: origin.script === 'hangul' ? 'ko' : origin.script === 'han' ? 'zh' : 'en',
      newsletter_opt_in: random.chance(0.35),
    };
  }

  private changeForeignStreet(random: TRandom, guest: TGuestProfile): Partial<TGuestProfile> {
    const origin = FOREIGN_ORIGINS.find((o) => o.country === guest.country);
    if (!origin) return {};
    const place = random.int(0, origin.cities.length - 1);
    return {
      city: origin.cities[place],
      address: streetAddress(origin.streets[place % origin.streets.length] as string, random.int(1, 2400)),
    };
  }

  private japaneseAddress(random: TRandom): Pick<TGuestProfile, 'postal_code' | 'prefecture' | 'city' | 'address'> {
    const prefecture = random.weighted(PREFECTURES.map((p) => [p, p.weight] as const));
    const [city, postalPrefix] = random.pick(prefecture.cities);
    const town = random.pick(TOWN_NAMES);
    const chome = random.int(1, 6);
    const banchi = random.int(1, 30);
    const go = random.int(1, 25);
    const street = random.chance(0.5) ? `${town}${chome}丁目${banchi}-${go}` : `${town}${chome}-${banchi}-${go}`;
    const building = random.chance(0.35)
      ? ` ${random.pick(BUILDING_NAMES)}${random.int(1, 12)}0${random.int(1, 9)}号室`
      : '';
    return {
      postal_code: random.chance(0.94) ? `${postalPrefix}-${String(random.int(0, 9999)).padStart(4, '0')}` : null,
      prefecture: prefecture.name,
      city,
      address: `${street}${building}`,
    };
  }

  private birthDate(random: TRandom, referenceDay: number): string {
    const [youngest, oldest] = random.weighted([
      [[20, 29], 16],
      [[30, 39], 22],
      [[40, 49], 24],
      [[50, 59], 20],
      [[60, 69], 12],
      [[70, 85], 6],
    ] as const);
    const age = random.int(youngest, oldest);
    return formatDay(referenceDay - Math.floor(age * 365.25) - random.int(0, 364));
  }

  private email(random: TRandom, given: string, family: string): string {
    const g = toAscii(given);
    const f = toAscii(family);
    const pattern = random.weighted<() => string>([
      [() => `${g}.${f}`, 30],
      [() => `${f}.${g}${random.int(60, 99)}`, 15],
      [() => `${g.slice(0, 1)}${f}${random.int(1, 999)}`, 20],
      [() => `${g}_${f}`, 10],
      [() => `${g}-${random.pick(EMAIL_WORDS)}-${random.int(1, 99)}`, 15],
      [() => `${random.pick(EMAIL_WORDS)}.${g}${random.int(1, 9999)}`, 10],
    ]);
    const local = pattern();
    const domain = random.weighted(EMAIL_DOMAINS);
    let email = `${local}@${domain}`;
    for (let n = 2; this.emailsInUse.has(email); n += 1) email = `${local}${n}@${domain}`;
    this.emailsInUse.add(email);
    // Typed by hand: a capital letter here and there, now and then a trailing space.
    if (random.chance(0.03)) return email.charAt(0).toUpperCase() + email.slice(1);
    if (random.chance(0.01)) return `${email} `;
    return email;
  }

  /**
   * Every number is new: the digits come from a bijection of a per-account counter, so no two
   * guests share a number unless the simulator means them to.
   */
  private nextDigits(length: number): string {
    this.phoneSerial += 1;
    const modulus = 10 ** length;
    // 7_919_423 is odd and not a multiple of 5, hence coprime with 10^n: the map is one-to-one.
    const scrambled = (this.phoneSerial * 7_919_423 + this.accountSalt) % modulus;
    return String(scrambled).padStart(length, '0');
  }

  private japanesePhone(random: TRandom): string {
    if (random.chance(0.06)) {
      const area = random.pick(JP_LANDLINE_AREAS);
      const digits = this.nextDigits(8);
      return `${area}-${digits.slice(0, 4)}-${digits.slice(4)}`;
    }
    const prefix = random.weighted([
      ['090', 50],
      ['080', 35],
      ['070', 15],
    ] as const);
    return formatJapaneseMobile(random, `${prefix}${this.nextDigits(8)}`);
  }

  private foreignPhone(random: TRandom, origin: TForeignOrigin): string {
    const digits = this.nextDigits(origin.phonePattern.split('#').length - 1);
    let next = 0;
    const written = origin.phonePattern.replace(/#/g, () => digits.charAt(next++));
    // Some forms strip the spacing, some guests never type it.
    return random.chance(0.3) ? written.replace(/[ -]/g, '') : written;
  }
}

/** House number and street in the order the street's script writes them. */
function streetAddress(street: string, number: number): string {
  if (/\p{Script=Han}/u.test(street)) return `${street}${number}號`;
  if (/\p{Script=Hangul}/u.test(street)) return `${street} ${number}`;
  return `${number} ${street}`;
}

/** The ways a Japanese mobile number `09012345678` is typed into booking forms. */
export function formatJapaneseMobile(random: TRandom, digits: string): string {
  const [a, b, c] = [digits.slice(0, 3), digits.slice(3, 7), digits.slice(7)];
  return random.weighted([
    [digits, 45],
    [`${a}-${b}-${c}`, 30],
    [toFullWidth(`${a}-${b}-${c}`), 4],
    [toFullWidth(digits), 3],
    [`${toFullWidth(a)}ー${toFullWidth(b)}ー${toFullWidth(c)}`, 1],
    [`+81 ${a.slice(1)}-${b}-${c}`, 5],
    [`+81${digits.slice(1)}`, 3],
    [`(${a})${b}-${c}`, 4],
    [`${a} ${b} ${c}`, 5],
  ] as const);
}

/** The same number typed another way, for duplicate profiles. */
function reformatPhone(random: TRandom, phone: string): string {
  const digits = toHalfWidthDigits(phone);
  if (/^0[789]0\d{8}$/.test(digits)) {
    let other = phone;
    for (let attempt = 0; other === phone && attempt < 5; attempt += 1) other = formatJapaneseMobile(random, digits);
    return other === phone ? `${digits.slice(0, 3)}-${digits.slice(3, 7)}-${digits.slice(7)}` : other;
  }
  return phone.includes('-') ? phone.replaceAll('-', '') : phone;
}

/** Digits only, with full-width digits folded and +81 turned back into a leading 0. */
function toHalfWidthDigits(phone: string): string {
  const folded = phone.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - FULL_WIDTH_OFFSET));
  const digits = folded.replace(/\D/g, '');
  return folded.trim().startsWith('+81') ? `0${digits.slice(2)}` : digits;
}

function toFullWidth(text: string): string {
  return text.replace(/[0-9]/g, (d) => String.fromCharCode(d.charCodeAt(0) + FULL_WIDTH_OFFSET)).replaceAll('-', '－');
}

function toAscii(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return ascii || 'guest';
}

function romajiOfFamily(guest: TGuestProfile): string {
  return (
    FAMILY_NAMES.find((f) => f[0] === guest.family_name)?.[2] ??
    ROMANISED_FAMILY[guest.family_name] ??
    guest.family_name
  );
}

function romajiOfGiven(guest: TGuestProfile): string {
  return [...MALE_GIVEN_NAMES, ...FEMALE_GIVEN_NAMES].find((g) => g[0] === guest.given_name)?.[2] ?? 'guest';
}
