#!/usr/bin/env node
// `npm run test:e2e`: the e2e layer alone. The vitest project's global setup starts the product
// (scripts/start.mjs on a free port with a fresh embedded database), once per worker (two spec
// files at a time); set YADO_E2E_BASE_URL to test an already running one instead, with
// `--no-file-parallelism`. Extra arguments go to vitest (e.g. a spec file).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = spawnSync(join(root, 'node_modules/.bin/vitest'), ['run', '--project', 'e2e', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
