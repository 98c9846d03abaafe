import { describe, expect, it } from 'vitest';
import { ChangeLog } from './change-log.ts';

interface TItem {
  id: string;
  value: string;
}

function logWith(writes: [id: string, at: number, value: string][]): ChangeLog<TItem> {
  const log = new ChangeLog<TItem>();
  for (const [id, at, value] of writes) log.write(id, log.versionTime(id, at), { id, value });
  return log;
}

describe('ChangeLog', () => {
  it('serves each record once, as it was at the snapshot instant, however the record changes later', () => {
    const log = logWith([
      ['a', 10, 'a1'],
      ['b', 20, 'b1'],
      ['c', 30, 'c1'],
    ]);
    const first = log.page({ since: null, asOf: 30, after: null, limit: 1 });
    expect(first.items).toEqual([{ id: 'a', value: 'a1' }]);
    // Between pages, b changes and a new record appears: neither belongs to the snapshot at 30.
    log.write('b', 40, { id: 'b', value: 'b2' });
    log.write('d', 41, { id: 'd', value: 'd1' });
    const rest = log.page({ since: null, asOf: 30, after: first.last, limit: 10 });
    expect(rest.items).toEqual([
      { id: 'b', value: 'b1' },
      { id: 'c', value: 'c1' },
    ]);
    expect(rest.hasMore).toBe(false);
    // The next sync, from the snapshot on, sees exactly what changed after it.
    expect(log.page({ since: 30, asOf: 41, after: null, limit: 10 }).items).toEqual([
      { id: 'b', value: 'b2' },
      { id: 'd', value: 'd1' },
    ]);
  });

  it('orders by (updated_at, id) and only says there is more when there is', () => {
    const log = logWith([
      ['b', 10, 'b1'],
      ['a', 10, 'a1'],
      ['c', 5, 'c1'],
    ]);
    const page = log.page({ since: null, asOf: 100, after: null, limit: 3 });
    expect(page.items.map((i) => i.id)).toEqual(['c', 'a', 'b']);
    expect(page.hasMore).toBe(false);
    const two = log.page({ since: null, asOf: 100, after: null, limit: 2 });
    expect(two.hasMore).toBe(true);
    expect(two.last).toEqual({ at: 10, id: 'a' });
  });

  it('gives a record written twice at the same instant a later version time, and keeps its history', () => {
    const log = logWith([
      ['a', 10, 'a1'],
      ['a', 10, 'a2'],
    ]);
    expect(log.latest('a')).toEqual({ id: 'a', value: 'a2' });
    expect(log.asOf('a', 10)).toEqual({ id: 'a', value: 'a1' });
    expect(log.asOf('a', 11)).toEqual({ id: 'a', value: 'a2' });
    expect(log.asOf('a', 9)).toBeUndefined();
    expect(log.size).toBe(1);
    expect(log.versionCount).toBe(2);
    expect(() => log.write('a', 5, { id: 'a', value: 'old' })).toThrow();
  });

  it('skips versions that are not later than updated_since', () => {
    const log = logWith([
      ['a', 10, 'a1'],
      ['b', 20, 'b1'],
      ['a', 30, 'a2'],
    ]);
    expect(log.page({ since: 20, asOf: 30, after: null, limit: 10 }).items).toEqual([{ id: 'a', value: 'a2' }]);
    expect(log.page({ since: 10, asOf: 25, after: null, limit: 10 }).items).toEqual([{ id: 'b', value: 'b1' }]);
    expect(log.currentRecords().map((r) => r.value)).toEqual(['b1', 'a2']);
  });
});
