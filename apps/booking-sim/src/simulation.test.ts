import { describe, expect, it } from 'vitest';
import { MS_PER_DAY, MS_PER_HOUR } from './calendar.ts';
import { createBookingSim, type TBookingSimOptions } from './create-booking-sim.ts';
import { createManualClock } from './manual-clock.ts';
import type { TSimAccountConfig } from './types.ts';

const ACCOUNT: TSimAccountConfig = {
  id: 'DBK-T1',
  name: 'テスト旅館グループ',
  apiKey: 'key-t1',
  guests: 400,
  foreignGuestShare: 0.15,
  hotels: [
    { code: 'T-CITY', name: 'テストホテル 東京', kind: 'city' },
    { code: 'T-ONSEN', name: 'テスト旅館 箱根', kind: 'ryokan' },
  ],
};
const ORIGIN = '2026-06-01';
const ORIGIN_MS = Date.parse('2026-06-01T00:00:00+09:00');

function simAt(instant: number, options: Partial<TBookingSimOptions> = {}) {
  const clock = createManualClock(new Date(instant));
  const sim = createBookingSim({
    seed: 42,
    accounts: [ACCOUNT],
    origin: ORIGIN,
    rateLimit: false,
    now: clock.now,
    ...options,
  });
  return { sim, clock };
}

describe('deterministic data', () => {
  it('gives the same guests and reservations for the same seed and instant, and different ones for another seed', () => {
    const at = ORIGIN_MS + 20 * MS_PER_DAY;
    const one = simAt(at).sim.inspect('DBK-T1');
    const two = simAt(at).sim.inspect('DBK-T1');
    expect(two).toEqual(one);
    const other = simAt(at, { seed: 43 }).sim.inspect('DBK-T1');
    expect(other.guests.map((g) => g.family_name)).not.toEqual(one.guests.map((g) => g.family_name));
  });

  it('reaches the same state whether the clock jumps a month or creeps an hour at a time', () => {
    const target = ORIGIN_MS + 30 * MS_PER_DAY + 13 * MS_PER_HOUR;
    const jumped = simAt(target).sim.inspect('DBK-T1');
    const { sim, clock } = simAt(ORIGIN_MS);
    for (let t = ORIGIN_MS; t < target; t += 7 * MS_PER_HOUR) {
      clock.set(new Date(t));
      sim.inspect('DBK-T1');
    }
    clock.set(new Date(target));
    expect(sim.inspect('DBK-T1')).toEqual(jumped);
  });

  it('keeps an account the same when other accounts are added beside it', () => {
    const at = ORIGIN_MS + 5 * MS_PER_DAY;
    const alone = simAt(at).sim.inspect('DBK-T1');
    const other: TSimAccountConfig = {
      id: 'DBK-T2',
      name: 'Other',
      apiKey: 'key-t2',
      guests: 50,
      hotels: [{ code: 'O-1', name: 'Other 1' }],
    };
    const beside = simAt(at, { accounts: [other, ACCOUNT] }).sim.inspect('DBK-T1');
    expect(beside).toEqual(alone);
  });
});

describe('generated guests', () => {
  const { guests } = simAt(ORIGIN_MS).sim.inspect('DBK-T1');

  it('are mostly Japanese, written in kanji with katakana readings', () => {
    const japanese = guests.filter((g) => g.country === 'JP');
    expect(japanese.length).toBeGreaterThan(guests.length * 0.7);
    for (const guest of japanese) {
      expect(guest.family_name).toMatch(/^[\p{Script=Han}\p{Script=Hiragana}]+$/u);
      expect(guest.family_name_kana).toMatch(/^[\p{Script=Katakana}ー]+$/u);
      expect(guest.given_name_kana).toMatch(/^[\p{Script=Katakana}ー]+$/u);
    }
    expect(japanese.some((g) => g.prefecture === '東京都')).toBe(true);
  });

  it('include guests from abroad without katakana readings', () => {
    const foreign = guests.filter((g) => g.country !== 'JP');
    expect(foreign.length).toBeGreaterThan(10);
    expect(foreign.some((g) => /^[A-Za-z' ]+$/.test(g.family_name))).toBe(true);
    expect(foreign.every((g) => g.family_name_kana === null && g.prefecture === null)).toBe(true);
  });

  it('carry phone numbers typed every which way, so that normalisation has work to do', () => {
    const phones = guests.map((g) => g.phone).filter((p): p is string => p !== null);
    expect(phones.some((p) => /^0[789]0\d{8}$/.test(p))).toBe(true);
    expect(phones.some((p) => /^0[789]0-\d{4}-\d{4}$/.test(p))).toBe(true);
    expect(phones.some((p) => /[０-９]/.test(p))).toBe(true);
    expect(phones.some((p) => p.startsWith('+81'))).toBe(true);
    expect(phones.some((p) => p.startsWith('+') && !p.startsWith('+81'))).toBe(true);
  });

  it('sometimes lack an email, and couples sometimes share one', () => {
    expect(guests.some((g) => g.email === null)).toBe(true);
    const owners = new Map<string, string[]>();
    for (const g of guests) if (g.email) owners.set(g.email, [...(owners.get(g.email) ?? []), g.id]);
    const shared = [...owners.values()].filter((ids) => ids.length > 1);
    expect(shared.length).toBeGreaterThan(0);
    for (const ids of shared) {
      const [a, b] = ids.map((id) => guests.find((g) => g.id === id)!);
      expect(a!.family_name).toBe(b!.family_name);
    }
  });

  it('hold a few people twice, as OTAs file them: same name, same number typed another way', () => {
    const digits = (phone: string) =>
      phone
        .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
        .replace(/^\+81\s*/, '0')
        .replace(/\D/g, '');
    const byNumber = new Map<string, typeof guests>();
    for (const g of guests) if (g.phone) byNumber.set(digits(g.phone), [...(byNumber.get(digits(g.phone)) ?? []), g]);
    const twice = [...byNumber.values()].filter((list) => list.length > 1);
    expect(twice.length).toBeGreaterThan(0);
    for (const [first, second] of twice) {
      expect(second!.family_name + second!.given_name).toBe(first!.family_name + first!.given_name);
    }
    expect(twice.some(([first, second]) => first!.phone !== second!.phone)).toBe(true);
  });

  it('have valid birth dates, genders and ISO timestamps', () => {
    for (const g of guests) {
      expect(['male', 'female', 'unspecified']).toContain(g.gender);
      if (g.birth_date) expect(Number.isNaN(Date.parse(g.birth_date))).toBe(false);
      expect(g.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+09:00$/);
      expect(Date.parse(g.updated_at)).toBeLessThanOrEqual(ORIGIN_MS);
    }
  });
});

describe('generated reservations', () => {
  it('are consistent: dates and nights agree, parties add up, guests exist, amounts are yen', () => {
    const now = ORIGIN_MS + 10 * MS_PER_DAY;
    const { guests, reservations } = simAt(now).sim.inspect('DBK-T1');
    const guestIds = new Set(guests.map((g) => g.id));
    const statuses = new Set(reservations.map((r) => r.status));
    expect(statuses).toEqual(new Set(['confirmed', 'cancelled', 'checked_in', 'checked_out', 'no_show']));
    expect(new Set(reservations.map((r) => r.source)).size).toBeGreaterThanOrEqual(6);
    for (const r of reservations) {
      expect(guestIds.has(r.guest_id)).toBe(true);
      expect(['T-CITY', 'T-ONSEN']).toContain(r.hotel_code);
      expect((Date.parse(r.check_out) - Date.parse(r.check_in)) / MS_PER_DAY).toBe(r.nights);
      expect(r.nights).toBeGreaterThanOrEqual(1);
      expect(r.guests).toBe(r.adults + r.children);
      expect(Number.isInteger(r.amount) && r.amount >= 1000).toBe(true);
      expect(Date.parse(r.booked_at)).toBeLessThan(Date.parse(`${r.check_in}T00:00:00+09:00`));
      expect(Date.parse(r.updated_at)).toBeLessThanOrEqual(now);
      expect(r.cancelled_at !== null).toBe(r.status === 'cancelled');
      if (r.status === 'confirmed')
        expect(Date.parse(`${r.check_in}T00:00:00+09:00`)).toBeGreaterThan(now - MS_PER_DAY);
      if (r.status === 'checked_out') expect(Date.parse(`${r.check_out}T00:00:00+09:00`)).toBeLessThanOrEqual(now);
    }
  });
});

describe('time evolution', () => {
  it('creates, changes and cancels reservations, checks guests in and out, and edits guest profiles as days pass', () => {
    const { sim, clock } = simAt(ORIGIN_MS);
    const before = sim.inspect('DBK-T1');
    const beforeById = new Map(before.reservations.map((r) => [r.id, r]));
    const guestsBefore = new Map(before.guests.map((g) => [g.id, g]));
    clock.advanceDays(30);
    const after = sim.inspect('DBK-T1');

    const created = after.reservations.filter((r) => !beforeById.has(r.id));
    expect(created.length).toBeGreaterThan(10);
    expect(created.every((r) => Date.parse(r.created_at) >= ORIGIN_MS)).toBe(true);

    const changed = after.reservations.filter((r) => {
      const old = beforeById.get(r.id);
      return (
        old &&
        old.status === 'confirmed' &&
        r.status === 'confirmed' &&
        (old.check_in !== r.check_in || old.room_name !== r.room_name || old.guests !== r.guests)
      );
    });
    expect(changed.length).toBeGreaterThan(0);
    for (const r of changed) expect(r.amount).toBeGreaterThan(0);

    const cancelled = after.reservations.filter(
      (r) => r.status === 'cancelled' && Date.parse(r.cancelled_at!) >= ORIGIN_MS,
    );
    expect(cancelled.length).toBeGreaterThan(0);

    const arrived = after.reservations.filter(
      (r) => beforeById.get(r.id)?.status === 'confirmed' && r.status === 'checked_out',
    );
    expect(arrived.length).toBeGreaterThan(0);

    const newGuests = after.guests.filter((g) => !guestsBefore.has(g.id));
    expect(newGuests.length).toBeGreaterThan(0);
    const editedGuests = after.guests.filter(
      (g) => guestsBefore.has(g.id) && guestsBefore.get(g.id)!.updated_at !== g.updated_at,
    );
    expect(editedGuests.length).toBeGreaterThan(0);
  });

  it('does not move backwards when the clock does', () => {
    const { sim, clock } = simAt(ORIGIN_MS + 5 * MS_PER_DAY);
    const later = sim.inspect('DBK-T1');
    clock.advanceDays(-3);
    expect(sim.inspect('DBK-T1')).toEqual(later);
  });
});
