#!/usr/bin/env node
// `node scripts/test-at.mjs "2026-12-31 14:58" [layer ...] [-- vitest arguments]`: runs test layers
// as if the clock read that UTC time when they start (and ran on from it), to find what breaks at a
// moment CI may meet: Tokyo's midnight (15:00 UTC), a month's or a year's end, a leap day. The
// whole process tree (vitest, the servers it starts, Chromium) runs under libfaketime (Debian's
// `faketime` package, installed here when missing) with one offset from the real clock, so every
// process agrees on the time. Layers: unit, web, integration-pglite, e2e (default: all four); the
// integration layer over the machine's PostgreSQL is left out, as its server keeps the real clock.
// Found this way: segments.int.test.ts's "last July" was within 365 days from January (fbe6c26).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const LIB = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const LAYERS = ['unit', 'web', 'integration-pglite', 'e2e'];

const args = process.argv.slice(2);
const dash = args.indexOf('--');
const own = dash < 0 ? args : args.slice(0, dash);
const extra = dash < 0 ? [] : args.slice(dash + 1);
const [when, ...asked] = own;
const at = Date.parse(`${when?.replace(' ', 'T')}Z`);
if (!when || Number.isNaN(at)) {
  console.error('usage: node scripts/test-at.mjs "YYYY-MM-DD HH:MM" [layer ...] [-- vitest arguments]');
  process.exit(2);
}
const unknown = asked.filter((l) => !LAYERS.includes(l));
if (unknown.length) {
  console.error(`layers are ${LAYERS.join(', ')}; not ${unknown.join(', ')}`);
  process.exit(2);
}
if (!existsSync(LIB)) {
  console.log('Installing Debian faketime (libfaketime)...');
  const install = spawnSync('bash', ['-c', 'apt-get update -qq && apt-get install -y -qq faketime >/dev/null'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (install.status !== 0 || !existsSync(LIB)) process.exit(install.status || 1);
}
// An offset in seconds ("+N" or "-N"), not a fixed start: a process started later starts later.
const offset = Math.round((at - Date.now()) / 1000);
const env = { ...process.env, LD_PRELOAD: LIB, FAKETIME: `${offset >= 0 ? '+' : ''}${offset}s` };
const layers = asked.length ? asked : LAYERS;
let failed = 0;
for (const layer of layers) {
  console.log(`\n=== ${layer} from ${new Date(Date.now() + offset * 1000).toISOString()} ===`);
  const run = spawnSync('node_modules/.bin/vitest', ['run', '--project', layer, ...extra], { stdio: 'inherit', env });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
