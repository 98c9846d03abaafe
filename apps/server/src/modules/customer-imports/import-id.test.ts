import { describe, expect, it } from 'vitest';
import { importIdPrefix } from './apply-import.ts';

const idOf = (prefix: string, row: number) =>
  (prefix + row.toString(16).padStart(8, '0')).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

describe('ids of imported customers', () => {
  it('are version 7 UUIDs that rise with the row, from run to run, and differ within a millisecond', () => {
    const prefix = importIdPrefix(Date.UTC(2026, 10, 22));
    expect(prefix).toMatch(/^[0-9a-f]{24}$/);
    const ids = [2, 3, 10, 65_536, 2 ** 31 - 1].map((row) => idOf(prefix, row));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(idOf(importIdPrefix(Date.UTC(2026, 10, 22, 0, 0, 1)), 2) > ids[ids.length - 1]!).toBe(true);
    const sameMoment = new Set(Array.from({ length: 1000 }, () => importIdPrefix(Date.UTC(2026, 10, 22))));
    expect(sameMoment.size).toBe(1000);
  });
});
