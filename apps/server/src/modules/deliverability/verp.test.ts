import { describe, expect, it } from 'vitest';
import { openReturnPathAddress, returnPathFor, sendingDomainOfReturnPath } from './verp.ts';

const rt = { config: { jwtSecret: 'a-server-secret-that-is-long-enough-for-tests' } } as never;
const other = { config: { jwtSecret: 'another-server-secret-that-is-long-enough-too' } } as never;
const delivery = '0b6f2c1e-5d4a-4c3b-9a8e-7f6d5c4b3a21';

describe('the VERP return path', () => {
  it('names the delivery under yado.<sending domain>, in a local part of at most 64 characters', () => {
    const address = returnPathFor(rt, delivery, 'info@Sakura.example.jp');
    expect(address).toMatch(/^b-[a-z2-7]{42}@yado\.sakura\.example\.jp$/);
    expect(address.indexOf('@')).toBeLessThanOrEqual(64);
    expect(openReturnPathAddress(rt, address)).toEqual({ deliveryId: delivery, sendingDomain: 'sakura.example.jp' });
    // A relay that folds the case changes nothing.
    expect(openReturnPathAddress(rt, address.toUpperCase())).toEqual({
      deliveryId: delivery,
      sendingDomain: 'sakura.example.jp',
    });
    expect(sendingDomainOfReturnPath({ from: address })).toBe('sakura.example.jp');
  });

  it('refuses a token signed with another secret, altered, cut short or not ours', () => {
    const address = returnPathFor(rt, delivery, 'info@sakura.example.jp');
    expect(openReturnPathAddress(other, address)).toBeNull();
    const local = address.slice(0, address.indexOf('@'));
    const flipped = `${local.slice(0, 10)}${local[10] === 'a' ? 'b' : 'a'}${local.slice(11)}@yado.sakura.example.jp`;
    expect(openReturnPathAddress(rt, flipped)).toBeNull();
    expect(openReturnPathAddress(rt, `${local.slice(0, -1)}@yado.sakura.example.jp`)).toBeNull();
    expect(openReturnPathAddress(rt, `${local}@sakura.example.jp`)).toBeNull();
    expect(openReturnPathAddress(rt, 'postmaster@yado.sakura.example.jp')).toBeNull();
    expect(openReturnPathAddress(rt, 'b-!!!!@yado.sakura.example.jp')).toBeNull();
    expect(openReturnPathAddress(rt, 'no-at-sign')).toBeNull();
  });
});
