#!/usr/bin/env node
// `npm run bench -- bundle`: builds the console and measures what the browser downloads.
// Prints every JavaScript chunk's gzipped size, then the gzipped JavaScript of the two first pages
// a user meets, each with everything it imports statically: /login (the entry, the public layout
// and the login page) and the signed-in shell with the dashboard page. Both are held to the 200 kB
// initial-JS budget of DESIGN section 9: the BENCH line reports the heavier, and the run exits 1
// when either is over. Each route's own chunk should stay under 50 kB (listed, not enforced: the
// flex builder, the scenario editor and the chart library are lazy chunks with budgets of their own).
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'apps/web/dist');
const BUDGET_KB = 200;
const ROUTE_CHUNK_BUDGET_KB = 50;

if (!process.argv.includes('--no-build')) {
  // What users download is the production build, whatever NODE_ENV the caller has.
  const built = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const gzipKb = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;

/** The chunk files a manifest entry loads before it can run: itself and its static imports. */
function closure(keys, seen = new Set()) {
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk || seen.has(chunk.file)) continue;
    seen.add(chunk.file);
    closure(chunk.imports ?? [], seen);
  }
  return seen;
}

const keyOf = (suffix) => {
  const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
  if (!key) throw new Error(`No chunk for ${suffix} in the build manifest`);
  return key;
};

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const loginFiles = closure([
  keyOf('src/i18n/ja.json'),
  entry,
  keyOf('src/modules/auth/components/PublicLayout.tsx'),
  keyOf('src/modules/auth/pages/LoginPage.tsx'),
]);
const shellFiles = closure([
  keyOf('src/i18n/ja.json'),
  entry,
  keyOf('src/modules/shell/components/Shell.tsx'),
  keyOf('src/modules/dashboard/pages/DashboardPage.tsx'),
]);

// What the dashboard downloads before its blocks show: the above, the blocks' own chunk (lazy, loaded
// as the page renders) and the texts the signed-in shell and the dashboard wait for. Reported, not budgeted.
const dashboardFiles = closure(
  [
    keyOf('src/modules/dashboard/components/DashboardBlocks.tsx'),
    keyOf('src/i18n/console/ja.json'),
    keyOf('src/i18n/areas/dashboard/ja.json'),
  ],
  new Set(shellFiles),
);

// Chunks are named by their hash alone (apps/web/vite.config.ts): each is listed with its source.
const sourceOf = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, chunk.src ?? chunk.name ?? key]));
const files = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'));
const sizes = files.map((f) => ({ file: `assets/${f}`, kb: gzipKb(`assets/${f}`) })).sort((a, b) => b.kb - a.kb);
let overBudget = 0;
for (const { file, kb } of sizes) {
  const isEntry = file === manifest[entry].file;
  const flag = !isEntry && kb > ROUTE_CHUNK_BUDGET_KB ? '  OVER 50 kB' : '';
  if (flag) overBudget += 1;
  const marks = `${loginFiles.has(file) ? ' [login]' : ''}${shellFiles.has(file) ? ' [shell]' : ''}`;
  const source = sourceOf.get(file);
  console.log(`${kb.toFixed(2).padStart(8)} kB gzip  ${file}${source ? ` (${source})` : ''}${marks}${flag}`);
}
const sum = (set) => [...set].reduce((total, file) => total + gzipKb(file), 0);
const login = sum(loginFiles);
const shell = sum(shellFiles);
console.log(`login page JS: ${login.toFixed(1)} kB gzip in ${loginFiles.size} chunks`);
console.log(`shell + dashboard JS: ${shell.toFixed(1)} kB gzip in ${shellFiles.size} chunks`);
console.log(
  `dashboard with its blocks and texts (not budgeted): ${sum(dashboardFiles).toFixed(1)} kB gzip in ${dashboardFiles.size} chunks`,
);
console.log(`chunks over ${ROUTE_CHUNK_BUDGET_KB} kB besides the entry: ${overBudget}`);
const overFirst = [
  ['login page', login],
  ['shell + dashboard', shell],
].filter(([, kb]) => kb > BUDGET_KB);
for (const [what, kb] of overFirst) console.log(`OVER BUDGET: ${what} JS ${kb.toFixed(1)} kB gzip > ${BUDGET_KB} kB`);
const heavier = Math.max(login, shell);
console.log(
  `BENCH bundle value=${heavier.toFixed(1)} unit=kB baseline=${BUDGET_KB} ratio=${(BUDGET_KB / heavier).toFixed(2)}`,
);
process.exit(overFirst.length ? 1 : 0);
