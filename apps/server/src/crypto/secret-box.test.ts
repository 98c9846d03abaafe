import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from './secret-box.ts';

const KEY = 'k'.repeat(48);

describe('secret box', () => {
  it('opens what it sealed, and the sealed text does not contain the secret', () => {
    const sealed = sealSecret('dbk_demo_sakura_7f3c9a1e5b2d4068', KEY);
    expect(sealed).not.toContain('dbk_demo');
    expect(openSecret(sealed, KEY)).toBe('dbk_demo_sakura_7f3c9a1e5b2d4068');
  });

  it('seals the same secret differently each time', () => {
    expect(sealSecret('same', KEY)).not.toBe(sealSecret('same', KEY));
  });

  it('refuses another key and an altered text', () => {
    const sealed = sealSecret('secret', KEY);
    expect(() => openSecret(sealed, 'x'.repeat(48))).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => openSecret(parts.join('.'), KEY)).toThrow();
  });
});
