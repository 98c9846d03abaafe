import { describe, expect, it } from 'vitest';
import { DomainRateLimit } from './domain-rate.ts';

describe('the per-domain sending rate', () => {
  it('spaces messages to one domain and leaves other domains alone', async () => {
    const limit = new DomainRateLimit(20); // one slot every 50 ms
    const started = Date.now();
    await Promise.all([limit.acquire('a.jp'), limit.acquire('a.jp'), limit.acquire('a.jp'), limit.acquire('b.jp')]);
    // Three to a.jp: the third waits two slots (100 ms); b.jp went at once.
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(limit.acquire('c.jp')).toBeUndefined();
  });

  it('does nothing when the limit is off', () => {
    const limit = new DomainRateLimit(0);
    for (let i = 0; i < 100; i++) expect(limit.acquire('a.jp')).toBeUndefined();
  });
});
