#!/usr/bin/env node
// `npm test`: every test layer in turn (DESIGN section 8): unit, web, integration over
// PostgreSQL (or PGlite when no server answers), the PGlite smoke pass, then e2e in Chromium.
// One layer at a time: two cores are not enough to run them side by side. Ends with one line
// "N passed, N failed" over all layers, naming the Node that ran them (CI runs a second leg on
// Node 24: .ci/run). `--exclude <glob>` (repeatable) leaves files out, as vitest's own option.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'node_modules/.cache/yado-test');
mkdirSync(out, { recursive: true });

const args = process.argv.slice(2);
const excluded = args.flatMap((arg, i) => (args[i - 1] === '--exclude' ? ['--exclude', arg] : []));
const only = args.filter((arg, i) => arg !== '--exclude' && args[i - 1] !== '--exclude');
const layers = ['unit', 'web', 'integration', 'integration-pglite', 'e2e'].filter(
  (l) => only.length === 0 || only.includes(l),
);

let passed = 0;
let failed = 0;
const broken = [];
// The failed tests, named again at the very end: CI keeps only the tail of a long run's output.
const failures = [];
for (const layer of layers) {
  process.stdout.write(`\n=== ${layer} (Node ${process.versions.node}) ===\n`);
  const report = join(out, `${layer}.json`);
  const status = await runLayer(layer, report);
  if (existsSync(report)) {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    for (const file of result.testResults) {
      const tests = file.assertionResults.filter((t) => t.status === 'failed');
      // A file that failed without a failed test (an error while loading, a hook) is named too.
      if (tests.length === 0 && file.status === 'failed')
        failures.push(`${layer}: ${file.name}: ${firstLine(file.message)}`);
      const where = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
      for (const t of tests) failures.push(`${layer}: ${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
  }
  if (status.code !== 0) {
    broken.push(layer);
    // Vitest fails a run for an error no test owns (an unhandled rejection, a worker that would
    // not close) without naming it in its JSON report: name it from what it printed.
    if (!failures.some((f) => f.startsWith(`${layer}: `)))
      failures.push(`${layer}: exited with ${status.code} without a failed test:\n${status.unowned}`);
  }
}
if (failures.length)
  process.stdout.write(
    `\nfailed tests:\n${failures
      .slice(0, 30)
      .map((f) => `  ${f}\n`)
      .join('')}`,
  );
process.stdout.write(`\n${broken.length ? `failed layers: ${broken.join(', ')}\n` : ''}`);
process.stdout.write(`${passed} passed, ${failed} failed (Node ${process.versions.node})\n`);
process.exit(broken.length ? 1 : 0);

/**
 * Runs one layer's vitest, its output passed through as it comes and kept, so that an error no
 * test owns can be quoted at the end: the "Unhandled Errors" section if there is one, otherwise
 * the output's last lines.
 */
function runLayer(layer, report) {
  const child = spawn(
    join(root, 'node_modules/.bin/vitest'),
    ['run', '--project', layer, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...excluded],
    {
      cwd: root,
      stdio: ['inherit', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' },
    },
  );
  const kept = [];
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    kept.push(chunk);
  });
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    kept.push(chunk);
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const lines = stripColour(Buffer.concat(kept).toString('utf8')).split('\n');
      const start = lines.findIndex((line) => /Unhandled Errors?\b/.test(line));
      const quoted = start >= 0 ? lines.slice(start, start + 40) : lines.slice(-25);
      resolve({ code: code ?? `signal ${signal}`, unowned: quoted.map((line) => `    ${line}`).join('\n') });
    });
  });
}

function stripColour(text) {
  return text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
}

/** A failure's first line, without colour codes, short enough to read in a log's tail. */
function firstLine(text) {
  const line = stripColour(String(text ?? '')).split('\n')[0] ?? '';
  return line.length > 400 ? `${line.slice(0, 400)}…` : line;
}
