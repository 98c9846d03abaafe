import i18next from 'i18next';
import { afterAll, describe, expect, it } from 'vitest';
import { bookingSourceText } from './bookingSourceText';

describe('booking source text', () => {
  afterAll(async () => {
    await i18next.changeLanguage('en');
  });

  it("names the booking system's source codes in the reader's language", async () => {
    await i18next.changeLanguage('ja');
    expect(bookingSourceText('direct_web', i18next.t)).toBe('自社サイト');
    expect(bookingSourceText('rakuten_travel', i18next.t)).toBe('楽天トラベル');
    expect(bookingSourceText('jalan', i18next.t)).toBe('じゃらん');
    expect(bookingSourceText('phone', i18next.t)).toBe('電話');
    await i18next.changeLanguage('en');
    expect(bookingSourceText('direct_web', i18next.t)).toBe('Direct (web)');
    expect(bookingSourceText('rakuten_travel', i18next.t)).toBe('Rakuten Travel');
    expect(bookingSourceText('booking_com', i18next.t)).toBe('Booking.com');
  });

  it('shows a code without a label as it came, and nothing as a dash', () => {
    expect(bookingSourceText('new_channel', i18next.t)).toBe('new_channel');
    expect(bookingSourceText('Rakuten Travel', i18next.t)).toBe('Rakuten Travel');
    expect(bookingSourceText(null, i18next.t)).toBe('-');
  });
});
