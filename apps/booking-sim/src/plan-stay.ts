import { formatDay, monthAndDate, weekday } from './calendar.ts';
import { BOOKING_SOURCES } from './data/booking-sources.ts';
import { ROOMS, type TRoom } from './data/rooms.ts';
import type { TRandom } from './random.ts';
import type { TReservation, TSimHotelConfig } from './types.ts';

/** What a reservation books: hotel, dates, room, party, channel and price. */
export type TStay = Pick<
  TReservation,
  | 'hotel_code'
  | 'check_in'
  | 'check_out'
  | 'nights'
  | 'adults'
  | 'children'
  | 'guests'
  | 'room_name'
  | 'room_type'
  | 'source'
  | 'source_name'
  | 'amount'
>;

/** Days between booking and arrival: a few last-minute, most a few weeks out, some far ahead. */
export function leadDays(random: TRandom): number {
  const [shortest, longest] = random.weighted([
    [[1, 3], 12],
    [[4, 14], 23],
    [[15, 60], 35],
    [[61, 180], 25],
    [[181, 300], 5],
  ] as const);
  return random.int(shortest, longest);
}

export function planStay(random: TRandom, hotel: TSimHotelConfig, foreign: boolean, checkInDay: number): TStay {
  const kind = hotel.kind ?? 'city';
  const nights = stayLength(random, kind, foreign);
  const room = random.weighted(ROOMS[kind].map((r) => [r, r.weight] as const));
  const source = random.weighted(
    BOOKING_SOURCES.map((s) => [s, foreign ? s.foreignWeight : s.domesticWeight] as const),
  );
  const stay: TStay = {
    hotel_code: hotel.code,
    ...dates(checkInDay, nights),
    ...roomAndParty(random, hotel, room),
    source: source.code,
    source_name: source.name,
    amount: 0,
  };
  return { ...stay, amount: priceStay(random, stay, hotel) };
}

/** The same stay on other dates, keeping the room and party. */
export function moveStay(stay: TStay, checkInDay: number, nights: number): TStay {
  return { ...stay, ...dates(checkInDay, nights) };
}

/** The same stay in another room of the same hotel; the party shrinks if the room is smaller. */
export function changeRoom(random: TRandom, stay: TStay, hotel: TSimHotelConfig): TStay {
  const rooms = ROOMS[hotel.kind ?? 'city'].filter((r) => roomName(hotel, r) !== stay.room_name);
  if (rooms.length === 0) return stay;
  const room = random.pick(rooms);
  const adults = Math.min(stay.adults, room.capacity);
  const children = Math.min(stay.children, room.capacity - adults);
  return {
    ...stay,
    room_name: roomName(hotel, room),
    room_type: room.type,
    adults,
    children,
    guests: adults + children,
  };
}

/** One more or one fewer guest in the same room. */
export function changeParty(random: TRandom, stay: TStay, hotel: TSimHotelConfig): TStay {
  const room = findRoom(hotel, stay.room_name);
  const capacity = room?.capacity ?? stay.guests;
  const adults = Math.max(1, Math.min(capacity - stay.children, stay.adults + (random.chance(0.5) ? 1 : -1)));
  return { ...stay, adults, guests: adults + stay.children };
}

/**
 * Price of a stay in JPY, tax included: the room's rate for each night, dearer on Friday and
 * Saturday nights and in the peak seasons (New Year, Golden Week, Obon and summer), more per
 * extra person, times a plan factor (room only ... with dinner and breakfast), rounded to 100 yen.
 */
export function priceStay(random: TRandom, stay: TStay, hotel: TSimHotelConfig): number {
  const room = findRoom(hotel, stay.room_name);
  const rate = room?.nightlyRate ?? 15_000;
  const checkIn = Date.parse(`${stay.check_in}T00:00:00Z`) / 86_400_000;
  let total = 0;
  for (let night = checkIn; night < checkIn + stay.nights; night += 1) total += rate * nightFactor(night);
  const perPerson = (hotel.kind ?? 'city') === 'ryokan' ? 0.45 : 0.2;
  const party = 1 + perPerson * (stay.adults - 1) + 0.1 * stay.children;
  const plan = random.pick([0.9, 1, 1, 1.15, 1.3]);
  return Math.max(1000, Math.round((total * party * plan) / 100) * 100);
}

function nightFactor(day: number): number {
  const { month, date } = monthAndDate(day);
  const newYear = (month === 12 && date >= 28) || (month === 1 && date <= 3);
  const goldenWeek = (month === 4 && date >= 29) || (month === 5 && date <= 5);
  const obon = month === 8 && date >= 10 && date <= 16;
  const season = newYear ? 1.5 : goldenWeek ? 1.4 : obon ? 1.45 : month === 8 || month === 7 ? 1.2 : 1;
  const dow = weekday(day);
  return season * (dow === 5 || dow === 6 ? 1.25 : 1);
}

function stayLength(random: TRandom, kind: keyof typeof ROOMS, foreign: boolean): number {
  const [shortest, longest] = random.weighted(
    kind === 'ryokan'
      ? ([
          [[1, 1], 70],
          [[2, 2], 25],
          [[3, 3], 5],
        ] as const)
      : kind === 'resort' || foreign
        ? ([
            [[1, 1], 20],
            [[2, 2], 30],
            [[3, 3], 22],
            [[4, 7], 24],
            [[8, 14], 4],
          ] as const)
        : ([
            [[1, 1], 55],
            [[2, 2], 25],
            [[3, 3], 10],
            [[4, 7], 8],
            [[8, 14], 2],
          ] as const),
  );
  return random.int(shortest, longest);
}

function roomAndParty(
  random: TRandom,
  hotel: TSimHotelConfig,
  room: TRoom,
): Pick<TStay, 'room_name' | 'room_type' | 'adults' | 'children' | 'guests'> {
  const adults =
    room.capacity === 1
      ? 1
      : random.weighted([
          [1, 15],
          [2, 65],
          [3, 12],
          [4, 8],
        ] as const);
  const cappedAdults = Math.min(adults, room.capacity);
  const children = cappedAdults < room.capacity && random.chance(0.2) ? random.int(1, room.capacity - cappedAdults) : 0;
  return {
    room_name: roomName(hotel, room),
    room_type: room.type,
    adults: cappedAdults,
    children,
    guests: cappedAdults + children,
  };
}

function dates(checkInDay: number, nights: number): Pick<TStay, 'check_in' | 'check_out' | 'nights'> {
  return { check_in: formatDay(checkInDay), check_out: formatDay(checkInDay + nights), nights };
}

function roomName(hotel: TSimHotelConfig, room: TRoom): string {
  return hotel.language === 'en' ? room.nameEn : room.nameJa;
}

function findRoom(hotel: TSimHotelConfig, name: string): TRoom | undefined {
  return ROOMS[hotel.kind ?? 'city'].find((r) => roomName(hotel, r) === name);
}
