import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findHardcodedStrings } from './hardcodedStrings';

const SRC = join(import.meta.dirname, '..');

function componentFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : componentFiles(path);
    return name.endsWith('.tsx') && !name.endsWith('.test.tsx') ? [path] : [];
  });
}

describe('hard-coded user-visible strings', () => {
  it('are found by the scanner in JSX text, visible props and literal children', () => {
    const found = findHardcodedStrings(`
      export const A = () => (
        <div title="Hello" data-testid="ok-id" aria-label={t('x')}>
          Sign in
          {'ログイン'}
          <Input placeholder={'Search'} />
          {' · '}
          -
        </div>
      );
    `);
    expect(found.map((f) => f.text)).toEqual(['Hello', 'Sign in', 'ログイン', 'Search']);
  });

  it('do not exist in any component: every text comes from ja.json and en.json', () => {
    const offenders = componentFiles(SRC).flatMap((path) =>
      findHardcodedStrings(readFileSync(path, 'utf8'), path).map((f) => `${relative(SRC, path)}:${f.line} "${f.text}"`),
    );
    expect(offenders).toEqual([]);
    // Parses every component of the console: seconds on a busy machine, beyond the default 5 s.
  }, 60_000);
});
