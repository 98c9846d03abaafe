#!/usr/bin/env node
// `npm run bench -- <name> [--size N]`: runs bench/<name>.ts or bench/<name>.mjs. Each bench
// seeds its own data, measures a raw baseline in the same run and ends with one line:
// BENCH <name> value=<n> unit=<unit> baseline=<n> ratio=<r>
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...args] = process.argv.slice(2);
const available = readdirSync(join(root, 'bench'))
  .filter((f) => /\.(ts|mjs)$/.test(f) && !f.startsWith('_'))
  .map((f) => f.replace(/\.(ts|mjs)$/, ''));
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <name> [--size N]\navailable: ${available.join(', ')}\n`);
  process.exit(2);
}
const ts = join(root, 'bench', `${name}.ts`);
const file = existsSync(ts) ? ts : join(root, 'bench', `${name}.mjs`);
const command = file.endsWith('.ts') ? join(root, 'node_modules/.bin/tsx') : process.execPath;
const run = spawnSync(command, [file, ...args], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
