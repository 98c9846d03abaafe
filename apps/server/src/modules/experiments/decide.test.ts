import { describe, expect, it } from 'vitest';
import { decisionOf, type TVariantCounts } from './decide.ts';

const counts = (variant: number, sends: number, clicks: number, booked = 0): TVariantCounts => ({
  variant,
  sends,
  human_opens: 0,
  clicks,
  bookings: booked,
  booked,
  revenue: 0,
});

describe('the decision of an A/B test', () => {
  it('names B when it beats A at 95 % with 500 sends each, with its lift over A', () => {
    const d = decisionOf([counts(0, 600, 30), counts(1, 600, 60)], 2, 'clicks');
    expect(d).toMatchObject({ how: 'significant', winner: 1 });
    if (d.how !== 'significant') throw new Error('expected a winner');
    expect(d.pValue).toBeLessThan(0.05);
    expect(d.lift).toBeCloseTo(1, 10);
  });

  it('sends A when the difference is within chance (A/A), and when a variant has fewer than 500 sends', () => {
    expect(decisionOf([counts(0, 1000, 50), counts(1, 1000, 55)], 2, 'clicks')).toEqual({
      how: 'inconclusive',
      winner: 0,
      reason: 'not_significant',
    });
    expect(decisionOf([counts(0, 499, 0), counts(1, 600, 300)], 2, 'clicks')).toEqual({
      how: 'inconclusive',
      winner: 0,
      reason: 'too_few',
    });
    // A variant with no mail sent at all is too few too.
    expect(decisionOf([counts(0, 600, 10)], 2, 'clicks')).toMatchObject({ reason: 'too_few' });
  });

  it('counts mails with a booking for the bookings metric, not bookings', () => {
    const d = decisionOf([counts(0, 800, 0, 5), counts(1, 800, 0, 30)], 2, 'bookings');
    expect(d).toMatchObject({ how: 'significant', winner: 1 });
  });
});
