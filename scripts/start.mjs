#!/usr/bin/env node
// `npm start`: builds the console when its sources are newer than the build, then runs the
// server (API, worker, embedded SMTP sink, booking simulator) in one process.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'apps/web');
const dist = join(web, 'dist/index.html');

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name === 'dist') continue;
    t = Math.max(t, newest(join(path, name)));
  }
  return t;
}

if (existsSync(join(web, 'index.html')) && process.env.YADO_SKIP_WEB_BUILD !== 'true') {
  const sources = Math.max(
    newest(join(web, 'src')),
    newest(join(web, 'index.html')),
    newest(join(root, 'packages/contracts/src')),
  );
  if (!existsSync(dist) || statSync(dist).mtimeMs < sources) {
    process.stdout.write('Building the console...\n');
    // Always a production build, whatever NODE_ENV the shell or a test runner left behind.
    const built = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
}

const tsx = join(root, 'node_modules/.bin/tsx');
const server = spawn(tsx, [join(root, 'apps/server/src/main.ts')], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
