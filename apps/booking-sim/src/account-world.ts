import {
  formatDay,
  formatJstTimestamp,
  jstDay,
  jstDayStart,
  MS_PER_DAY,
  MS_PER_HOUR,
  MS_PER_MINUTE,
  parseDay,
} from './calendar.ts';
import { ChangeLog } from './change-log.ts';
import { GuestFactory, type TGuestProfile } from './generate-guest.ts';
import { IndexedSet } from './indexed-set.ts';
import { changeParty, changeRoom, leadDays, moveStay, planStay, priceStay, type TStay } from './plan-stay.ts';
import { createRandom, hashSeed, type TRandom } from './random.ts';
import type { TActivityConfig, TGuest, TReservation, TSimAccountConfig, TSimHotelConfig } from './types.ts';

export interface TAccountWorldOptions {
  seed: string;
  account: TSimAccountConfig;
  /** Guests on file at the origin. */
  guests: number;
  /** The first simulated day (JST day number); everything before it is generated history. */
  originDay: number;
  /** How far back the generated history reaches. */
  historyDays: number;
  activity?: TActivityConfig;
}

type TDailyEvent =
  | { kind: 'arrival' | 'no_show' | 'departure'; at: number; order: number; reservationId: string }
  | { kind: 'new_reservation' | 'change' | 'cancellation' | 'guest_update'; at: number; order: number };

/**
 * One booking-system account (one contract, one or more hotels) and its history.
 *
 * The state at any instant is a pure function of (seed, account, options, instant): the guests
 * and reservations on file at the origin are generated in one pass, then each day from the
 * origin on draws its events (arrivals, departures, new bookings, changes, cancellations, guest
 * profile edits) from a random stream seeded by the day's number, and applies them in time
 * order as the clock passes them. Whether the clock jumps a month at once or creeps a minute at
 * a time, the same instant gives the same data.
 */
export class AccountWorld {
  readonly account: TSimAccountConfig;
  readonly guests = new ChangeLog<TGuest>();
  readonly reservations = new ChangeLog<TReservation>();

  private readonly seed: string;
  private readonly initialGuests: number;
  private readonly originDay: number;
  private readonly historyDays: number;
  private readonly activity: Required<TActivityConfig>;
  private readonly factory: GuestFactory;
  private readonly hotels: ReadonlyMap<string, TSimHotelConfig>;
  private readonly guestIds: string[] = [];
  /** Confirmed reservations that have not reached their arrival day: the ones guests still change or cancel. */
  private readonly upcoming = new IndexedSet();
  private readonly arrivals = new Map<number, Set<string>>();
  private readonly departures = new Map<number, Set<string>>();
  private guestSequence = 0;
  private reservationSequence = 0;
  private populated = false;
  private currentDay: number;
  private pending: TDailyEvent[] = [];
  private pendingIndex = 0;
  private dayRandom: TRandom = createRandom(0);

  constructor(options: TAccountWorldOptions) {
    if (options.account.hotels.length === 0) throw new Error(`account ${options.account.id} has no hotels`);
    this.seed = options.seed;
    this.account = options.account;
    this.initialGuests = Math.max(0, Math.floor(options.guests));
    this.originDay = options.originDay;
    this.historyDays = Math.max(1, Math.floor(options.historyDays));
    this.currentDay = options.originDay - 1;
    this.hotels = new Map(options.account.hotels.map((h) => [h.code, h]));
    this.factory = new GuestFactory(
      hashSeed(this.seed, this.account.id, 'phones') % 10_000_000,
      options.account.foreignGuestShare ?? 0.08,
    );
    const perDay = Math.max(1, this.initialGuests * 0.004);
    this.activity = {
      newReservationsPerDay: options.activity?.newReservationsPerDay ?? perDay,
      newGuestShare: options.activity?.newGuestShare ?? 0.45,
      changesPerDay: options.activity?.changesPerDay ?? Math.max(0.5, perDay * 0.12),
      cancellationsPerDay: options.activity?.cancellationsPerDay ?? Math.max(0.5, perDay * 0.08),
      guestUpdatesPerDay: options.activity?.guestUpdatesPerDay ?? Math.max(0.3, this.initialGuests * 0.0006),
    };
  }

  /** Applies everything that has happened up to `nowMs`. Time only moves forward: an earlier instant changes nothing. */
  advanceTo(nowMs: number): void {
    this.populate();
    for (;;) {
      while (this.pendingIndex < this.pending.length) {
        const event = this.pending[this.pendingIndex] as TDailyEvent;
        if (event.at > nowMs) return;
        this.apply(event);
        this.pendingIndex += 1;
      }
      if (jstDayStart(this.currentDay + 1) > nowMs) return;
      this.startDay(this.currentDay + 1);
    }
  }

  /** The guests on file at the origin, with their past and already-booked stays. */
  private populate(): void {
    if (this.populated) return;
    this.populated = true;
    const random = createRandom(hashSeed(this.seed, this.account.id, 'population'));
    const originStart = jstDayStart(this.originDay);
    const windowStart = originStart - this.historyDays * MS_PER_DAY;
    const firstSeen = Array.from(
      { length: this.initialGuests },
      () => windowStart + Math.floor(random.next() * (originStart - windowStart)),
    );
    firstSeen.sort((a, b) => a - b);

    const guests: TGuest[] = [];
    const bookings: { guest: TGuest; bookedAt: number }[] = [];
    let partnerCandidate: TGuestProfile | null = null;
    for (const createdAt of firstSeen) {
      const referenceDay = jstDay(createdAt);
      let profile: TGuestProfile;
      let stays: number;
      if (partnerCandidate && random.chance(0.1)) {
        profile = this.factory.createPartnerProfile(random, partnerCandidate, referenceDay);
        partnerCandidate = null;
        stays = random.int(1, 2);
      } else if (guests.length > 20 && random.chance(0.01)) {
        profile = this.factory.createDuplicateProfile(random, toProfile(random.pick(guests)));
        stays = 1;
      } else {
        profile = this.factory.createProfile(random, referenceDay);
        partnerCandidate = profile;
        // Most guests stay once; a loyal few come back many times.
        const [fewest, most] = random.weighted([
          [[1, 1], 55],
          [[2, 2], 20],
          [[3, 3], 10],
          [[4, 6], 10],
          [[7, 15], 5],
        ] as const);
        stays = random.int(fewest, most);
      }
      const guest = this.newGuest(profile, createdAt);
      guests.push(guest);
      bookings.push({ guest, bookedAt: createdAt });
      for (let n = 1; n < stays; n += 1) {
        bookings.push({ guest, bookedAt: createdAt + Math.floor(random.next() * (originStart - createdAt)) });
      }
    }
    // Reservation numbers follow booking order, as a real system's sequence would.
    bookings.sort((a, b) => a.bookedAt - b.bookedAt);
    const reservations = bookings.map(({ guest, bookedAt }) => this.historicReservation(random, guest, bookedAt));

    for (const guest of guests) this.guests.write(guest.id, Date.parse(guest.updated_at), guest);
    reservations.sort((a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at) || (a.id < b.id ? -1 : 1));
    for (const reservation of reservations)
      this.reservations.write(reservation.id, Date.parse(reservation.updated_at), reservation);
  }

  /** A reservation made before the origin, in the state the origin finds it. */
  private historicReservation(random: TRandom, guest: TGuest, bookedAt: number): TReservation {
    const originStart = jstDayStart(this.originDay);
    const checkInDay = jstDay(bookedAt) + leadDays(random);
    const stay = planStay(random, this.hotelFor(random, guest.id), guest.country !== 'JP', checkInDay);
    const checkInStart = jstDayStart(checkInDay);
    const checkOutDay = checkInDay + stay.nights;
    const base = this.reservationRecord(guest.id, bookedAt, stay);

    if (random.chance(0.09)) {
      const cancelledAt = bookedAt + Math.floor(random.next() * (Math.min(checkInStart, originStart) - bookedAt));
      return {
        ...base,
        status: 'cancelled',
        cancelled_at: formatJstTimestamp(cancelledAt),
        updated_at: formatJstTimestamp(cancelledAt),
      };
    }
    if (checkInDay >= this.originDay) {
      this.expectArrival(base.id, checkInDay);
      return base;
    }
    if (random.chance(0.03))
      return { ...base, status: 'no_show', updated_at: formatJstTimestamp(noShowTime(random, checkInDay)) };
    if (checkOutDay < this.originDay) {
      return { ...base, status: 'checked_out', updated_at: formatJstTimestamp(departureTime(random, checkOutDay)) };
    }
    this.expectDeparture(base.id, checkOutDay);
    return { ...base, status: 'checked_in', updated_at: formatJstTimestamp(arrivalTime(random, checkInDay)) };
  }

  /** Draws the day's events; their details are decided when each is applied, against the state of that moment. */
  private startDay(day: number): void {
    this.currentDay = day;
    const random = createRandom(hashSeed(this.seed, this.account.id, 'day', day));
    const events: TDailyEvent[] = [];
    const today = formatDay(day);
    for (const reservationId of [...(this.arrivals.get(day) ?? [])].sort()) {
      const reservation = this.reservations.latest(reservationId);
      // Moved or cancelled since it was filed under this day: nothing to do.
      if (reservation?.status !== 'confirmed' || reservation.check_in !== today) continue;
      this.upcoming.delete(reservationId);
      const noShow = random.chance(0.03);
      events.push({
        kind: noShow ? 'no_show' : 'arrival',
        at: noShow ? noShowTime(random, day) : arrivalTime(random, day),
        order: events.length,
        reservationId,
      });
    }
    this.arrivals.delete(day);
    for (const reservationId of [...(this.departures.get(day) ?? [])].sort()) {
      events.push({ kind: 'departure', at: departureTime(random, day), order: events.length, reservationId });
    }
    this.departures.delete(day);
    const counts = [
      ['new_reservation', this.activity.newReservationsPerDay],
      ['change', this.activity.changesPerDay],
      ['cancellation', this.activity.cancellationsPerDay],
      ['guest_update', this.activity.guestUpdatesPerDay],
    ] as const;
    for (const [kind, mean] of counts) {
      const count = random.poisson(mean);
      for (let n = 0; n < count; n += 1) events.push({ kind, at: businessTime(random, day), order: events.length });
    }
    events.sort((a, b) => a.at - b.at || a.order - b.order);
    this.pending = events;
    this.pendingIndex = 0;
    this.dayRandom = random;
  }

  private apply(event: TDailyEvent): void {
    const random = this.dayRandom;
    switch (event.kind) {
      case 'arrival':
      case 'no_show': {
        const reservation = this.reservations.latest(event.reservationId);
        if (!reservation || reservation.status !== 'confirmed') return;
        const status = event.kind === 'arrival' ? 'checked_in' : 'no_show';
        this.writeReservation(event.at, { ...reservation, status });
        if (status === 'checked_in') this.expectDeparture(reservation.id, parseDay(reservation.check_out) as number);
        return;
      }
      case 'departure': {
        const reservation = this.reservations.latest(event.reservationId);
        if (!reservation || reservation.status !== 'checked_in' || reservation.check_out !== formatDay(this.currentDay))
          return;
        this.writeReservation(event.at, { ...reservation, status: 'checked_out' });
        return;
      }
      case 'new_reservation':
        this.book(random, event.at);
        return;
      case 'change': {
        const reservation = this.pickUpcoming(random);
        if (reservation) this.change(random, reservation, event.at);
        return;
      }
      case 'cancellation': {
        const reservation = this.pickUpcoming(random);
        if (!reservation) return;
        this.upcoming.delete(reservation.id);
        const at = this.reservations.versionTime(reservation.id, event.at);
        this.writeReservation(at, { ...reservation, status: 'cancelled', cancelled_at: formatJstTimestamp(at) });
        return;
      }
      case 'guest_update': {
        if (this.guestIds.length === 0) return;
        const guest = this.guests.latest(random.pick(this.guestIds)) as TGuest;
        const profile = this.factory.changeProfile(random, toProfile(guest));
        if (JSON.stringify(profile) === JSON.stringify(toProfile(guest))) return;
        const at = this.guests.versionTime(guest.id, event.at);
        this.guests.write(guest.id, at, { ...guest, ...profile, updated_at: formatJstTimestamp(at) });
        return;
      }
    }
  }

  /** A new booking, by a returning guest or a first-time one. */
  private book(random: TRandom, at: number): void {
    let guest: TGuest;
    if (this.guestIds.length > 0 && !random.chance(this.activity.newGuestShare)) {
      guest = this.guests.latest(random.pick(this.guestIds)) as TGuest;
    } else {
      const profile =
        this.guestIds.length > 0 && random.chance(0.02)
          ? this.factory.createDuplicateProfile(
              random,
              toProfile(this.guests.latest(random.pick(this.guestIds)) as TGuest),
            )
          : this.factory.createProfile(random, this.currentDay);
      guest = this.newGuest(profile, at);
      this.guests.write(guest.id, at, guest);
    }
    const checkInDay = this.currentDay + leadDays(random);
    const stay = planStay(random, this.hotelFor(random, guest.id), guest.country !== 'JP', checkInDay);
    const reservation = this.reservationRecord(guest.id, at, stay);
    this.reservations.write(reservation.id, Date.parse(reservation.updated_at), reservation);
    this.expectArrival(reservation.id, checkInDay);
  }

  /** The guest moves the dates, switches room or changes the party size; the price follows. */
  private change(random: TRandom, reservation: TReservation, at: number): void {
    const hotel = this.hotels.get(reservation.hotel_code) as TSimHotelConfig;
    const current: TStay = reservation;
    let stay: TStay;
    switch (
      random.weighted([
        ['dates', 45],
        ['room', 30],
        ['party', 25],
      ] as const)
    ) {
      case 'dates': {
        const shift = random.chance(0.5) ? random.int(-7, -1) : random.int(1, 21);
        const checkInDay = Math.max(this.currentDay + 1, (parseDay(current.check_in) as number) + shift);
        const nights = random.chance(0.7) ? current.nights : random.int(1, 5);
        stay = moveStay(current, checkInDay, nights);
        break;
      }
      case 'room':
        stay = changeRoom(random, current, hotel);
        break;
      case 'party':
        stay = changeParty(random, current, hotel);
        break;
    }
    stay = { ...stay, amount: priceStay(random, stay, hotel) };
    this.writeReservation(at, { ...reservation, ...pickStay(stay) });
    this.expectArrival(reservation.id, parseDay(stay.check_in) as number);
  }

  /** A confirmed reservation whose arrival day is still ahead, or null if there is none. */
  private pickUpcoming(random: TRandom): TReservation | null {
    const today = formatDay(this.currentDay);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const id = this.upcoming.pick(random);
      if (id === undefined) return null;
      const reservation = this.reservations.latest(id);
      if (reservation && reservation.status === 'confirmed' && reservation.check_in > today) return reservation;
      this.upcoming.delete(id);
    }
    return null;
  }

  private writeReservation(at: number, reservation: TReservation): void {
    const time = this.reservations.versionTime(reservation.id, at);
    this.reservations.write(reservation.id, time, { ...reservation, updated_at: formatJstTimestamp(time) });
  }

  private newGuest(profile: TGuestProfile, createdAt: number): TGuest {
    this.guestSequence += 1;
    const id = `${this.account.id}-G${String(this.guestSequence).padStart(8, '0')}`;
    this.guestIds.push(id);
    const timestamp = formatJstTimestamp(createdAt);
    return { id, ...profile, created_at: timestamp, updated_at: timestamp };
  }

  private reservationRecord(guestId: string, bookedAt: number, stay: TStay): TReservation {
    this.reservationSequence += 1;
    const timestamp = formatJstTimestamp(bookedAt);
    return {
      id: `${this.account.id}-R${String(this.reservationSequence).padStart(8, '0')}`,
      guest_id: guestId,
      status: 'confirmed',
      booked_at: timestamp,
      ...pickStay(stay),
      currency: 'JPY',
      cancelled_at: null,
      created_at: timestamp,
      updated_at: timestamp,
    };
  }

  /** Guests mostly return to the same hotel of the account; the home hotel is a property of the guest id. */
  private hotelFor(random: TRandom, guestId: string): TSimHotelConfig {
    const hotels = this.account.hotels;
    const home = hotels[hashSeed(this.seed, guestId) % hotels.length] as TSimHotelConfig;
    return random.chance(0.75) ? home : random.pick(hotels);
  }

  private expectArrival(reservationId: string, day: number): void {
    this.upcoming.add(reservationId);
    fileUnder(this.arrivals, day, reservationId);
  }

  private expectDeparture(reservationId: string, day: number): void {
    fileUnder(this.departures, day, reservationId);
  }
}

function fileUnder(index: Map<number, Set<string>>, day: number, id: string): void {
  const ids = index.get(day);
  if (ids) ids.add(id);
  else index.set(day, new Set([id]));
}

function toProfile(guest: TGuest): TGuestProfile {
  const { id: _id, created_at: _created, updated_at: _updated, ...profile } = guest;
  return profile;
}

/** Only the stay's own fields, so that a wider object never leaks extra keys into a record. */
function pickStay(stay: TStay): TStay {
  const {
    hotel_code,
    check_in,
    check_out,
    nights,
    adults,
    children,
    guests,
    room_name,
    room_type,
    source,
    source_name,
    amount,
  } = stay;
  return {
    hotel_code,
    check_in,
    check_out,
    nights,
    adults,
    children,
    guests,
    room_name,
    room_type,
    source,
    source_name,
    amount,
  };
}

/** Bookings and edits happen between 07:00 and midnight, busiest in the evening. */
function businessTime(random: TRandom, day: number): number {
  const [first, last] = random.weighted([
    [[7, 11], 25],
    [[12, 17], 35],
    [[18, 23], 40],
  ] as const);
  return jstDayStart(day) + random.int(first, last) * MS_PER_HOUR + random.int(0, MS_PER_HOUR - 1);
}

function arrivalTime(random: TRandom, day: number): number {
  return jstDayStart(day) + 15 * MS_PER_HOUR + random.int(0, 6 * MS_PER_HOUR - 1);
}

/** The front desk marks a no-show late in the evening of the arrival day. */
function noShowTime(random: TRandom, day: number): number {
  return jstDayStart(day) + 23 * MS_PER_HOUR + 30 * MS_PER_MINUTE + random.int(0, 25 * MS_PER_MINUTE);
}

function departureTime(random: TRandom, day: number): number {
  return jstDayStart(day) + 10 * MS_PER_HOUR + random.int(0, MS_PER_HOUR - 1);
}
