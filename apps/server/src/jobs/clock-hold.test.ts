import { describe, expect, it } from 'vitest';
import { ClockHold } from './clock-hold.ts';

describe('the hold on the worker’s clock-driven work', () => {
  it('leaves runs out while it is taken, and runs them again once it is given back', async () => {
    const hold = new ClockHold();
    const ran: string[] = [];
    await hold.run(async () => void ran.push('before'));
    await hold.during(async () => {
      expect(hold.held).toBe(true);
      await hold.run(async () => void ran.push('while held'));
    });
    expect(hold.held).toBe(false);
    await hold.run(async () => void ran.push('after'));
    expect(ran).toEqual(['before', 'after']);
  });

  it('is taken only once the runs under way have ended', async () => {
    const hold = new ClockHold();
    const order: string[] = [];
    let finish = () => {};
    const running = hold.run(
      () =>
        new Promise<void>((resolve) => {
          finish = () => {
            order.push('run ended');
            resolve();
          };
        }),
    );
    const holding = hold.during(async () => void order.push('held work'));
    await Promise.resolve();
    expect(order).toEqual([]);
    finish();
    await Promise.all([running, holding]);
    expect(order).toEqual(['run ended', 'held work']);
  });

  it('is given back when the held work fails, and a failed run does not keep it waiting', async () => {
    const hold = new ClockHold();
    await expect(hold.run(() => Promise.reject(new Error('tick failed')))).rejects.toThrow('tick failed');
    await expect(hold.during(() => Promise.reject(new Error('seed failed')))).rejects.toThrow('seed failed');
    expect(hold.held).toBe(false);
  });
});
