#!/usr/bin/env node
// `npm test`: every test layer in turn (DESIGN section 8): unit, web, integration over
// PostgreSQL (or PGlite when no server answers), the PGlite smoke pass, then e2e in Chromium.
// One layer at a time. Ends with one line "N passed, N failed" over all layers, naming the Node
// that ran them (CI runs a second leg on Node 24: .ci/run). `--exclude <glob>` (repeatable) leaves
// files out, as vitest's own option.
//
// A test of the layers that wait on a database, a server or a browser (unit, whose db/client test
// opens the embedded PGlite; integration; the PGlite pass; e2e) that fails is run once more, its
// file alone, as Playwright's own CI setting does: a test that fails twice fails the layer; one
// that passes the second time passes it but is named at the end as flaky, with the first failure,
// so it is seen and fixed rather than hidden. Web tests get no second run: nothing in them waits
// on more than jsdom.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
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
const RUN_AGAIN = new Set(['unit', 'web', 'integration', 'integration-pglite', 'e2e']);
// More failed files than this is not flakiness: the layer is broken, and a second run would only
// take time.
const MOST_FILES_RUN_AGAIN = 4;

let passed = 0;
let failed = 0;
const broken = [];
// The failed and the flaky tests, named again at the very end: CI keeps only the tail of a long
// run's output.
const failures = [];
const flaky = [];
for (const layer of layers) {
  process.stdout.write(`\n=== ${layer} (Node ${process.versions.node}) ===\n`);
  const first = await runLayer(layer, join(out, `${layer}.json`), []);
  let outcome = first;
  const again = first.failedFiles;
  if (first.code !== 0 && RUN_AGAIN.has(layer) && again.length > 0 && again.length <= MOST_FILES_RUN_AGAIN) {
    process.stdout.write(`\n=== ${layer}: running again what failed: ${again.join(', ')} ===\n`);
    const second = await runLayer(layer, join(out, `${layer}.again.json`), again);
    const secondFiles = new Set(second.files.map((f) => f.where));
    outcome = {
      code: second.code,
      unowned: second.unowned,
      files: [...first.files.filter((f) => !secondFiles.has(f.where)), ...second.files],
    };
    if (second.code === 0) flaky.push(...first.failures);
  }
  for (const file of outcome.files) {
    passed += file.passed;
    failed += file.failed.length;
  }
  if (outcome.code !== 0) {
    broken.push(layer);
    const named = outcome.files.flatMap((file) => describeFailures(layer, file));
    // Vitest fails a run for an error no test owns (an unhandled rejection, a worker that would
    // not close) without naming it in its JSON report: name it from what it printed.
    failures.push(
      ...(named.length ? named : [`${layer}: exited with ${outcome.code} without a failed test:\n${outcome.unowned}`]),
    );
  }
}
const list = (title, items) =>
  items.length
    ? `\n${title}:\n${items
        .slice(0, 30)
        .map((f) => `  ${f}\n`)
        .join('')}`
    : '';
process.stdout.write(list('flaky tests (failed, then passed when their file ran again)', flaky));
process.stdout.write(list('failed tests', failures));
process.stdout.write(`\n${broken.length ? `failed layers: ${broken.join(', ')}\n` : ''}`);
process.stdout.write(
  `${passed} passed, ${failed} failed${flaky.length ? `, ${flaky.length} flaky` : ''} (Node ${process.versions.node})\n`,
);
process.exit(broken.length ? 1 : 0);

/**
 * Runs one layer's vitest (only `files`, when given), its output passed through as it comes and
 * kept, so that an error no test owns can be quoted: the "Unhandled Errors" section if there is
 * one, otherwise the output's last lines. Answers the exit code, each file's results, and the
 * files to run again: those with a failed test, and those vitest names as an unhandled error's
 * origin.
 */
async function runLayer(layer, report, files) {
  rmSync(report, { force: true });
  const child = spawn(
    join(root, 'node_modules/.bin/vitest'),
    [
      'run',
      '--project',
      layer,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...excluded,
      ...files,
    ],
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
  const code = await new Promise((resolve) => child.on('close', (exit, signal) => resolve(exit ?? `signal ${signal}`)));
  const lines = stripColour(Buffer.concat(kept).toString('utf8')).split('\n');
  const start = lines.findIndex((line) => /Unhandled Errors?\b/.test(line));
  const unowned = (start >= 0 ? lines.slice(start, start + 40) : lines.slice(-25)).map((l) => `    ${l}`).join('\n');
  const origins = lines.flatMap((line) => {
    const named = /This error originated in "([^"]+)" test file/.exec(line);
    return named ? [named[1]] : [];
  });

  const results = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')).testResults : [];
  const fileResults = results.map((file) => ({
    where: relative(root, file.name),
    status: file.status,
    message: file.message,
    passed: file.assertionResults.filter((t) => t.status === 'passed').length,
    failed: file.assertionResults.filter((t) => t.status === 'failed'),
  }));
  const failedFiles = [
    ...new Set([
      ...fileResults.filter((f) => f.status === 'failed' || f.failed.length > 0).map((f) => f.where),
      ...origins.map((o) => relative(root, join(root, o))),
    ]),
  ];
  return {
    code,
    unowned,
    files: fileResults,
    failedFiles,
    failures: [
      ...fileResults.flatMap((file) => describeFailures(layer, file)),
      ...(origins.length ? [`${layer}: an error no test owns:\n${unowned}`] : []),
    ],
  };
}

/** One line per failed test of a file; the file itself when it failed without one (a hook, a load error). */
function describeFailures(layer, file) {
  if (file.failed.length === 0)
    return file.status === 'failed' ? [`${layer}: ${file.where}: ${firstLine(file.message)}`] : [];
  return file.failed.map((t) => `${layer}: ${file.where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
}

function stripColour(text) {
  return text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
}

/** A failure's first line, without colour codes, short enough to read in a log's tail. */
function firstLine(text) {
  const line = stripColour(String(text ?? '')).split('\n')[0] ?? '';
  return line.length > 400 ? `${line.slice(0, 400)}…` : line;
}
