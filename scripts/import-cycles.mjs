#!/usr/bin/env node
// `npm run lint` ends with this: fails when source files import each other in a circle (a imports
// b, b imports a, or longer), type-only imports included. A circle means two files share something
// that belongs in a third both can import. Static relative imports of .ts/.tsx files count;
// lazy `import()` does not (it loads later, by design), nor do tests.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['packages/contracts/src', 'apps/server/src', 'apps/web/src', 'apps/booking-sim/src'];

const files = [];
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(path);
  }
}
for (const r of roots) walk(join(root, r));

const known = new Set(files);
const graph = new Map();
for (const file of files) {
  const source = readFileSync(file, 'utf8');
  const deps = [];
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.[^'"]+)['"]/gms),
    ...source.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm),
  ];
  for (const [, specifier] of specifiers) {
    const base = resolve(dirname(file), specifier);
    const target = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) => known.has(c));
    if (target) deps.push(target);
  }
  graph.set(file, deps);
}

// Strongly connected components (Tarjan): each of more than one file is a circle.
let counter = 0;
const stack = [];
const onStack = new Set();
const index = new Map();
const low = new Map();
const circles = [];
function visit(v) {
  index.set(v, counter);
  low.set(v, counter);
  counter += 1;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v)) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const component = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    component.push(relative(root, w));
  } while (w !== v);
  if (component.length > 1) circles.push(component.sort());
}
for (const file of files) if (!index.has(file)) visit(file);

for (const circle of circles) process.stderr.write(`import circle: ${circle.join(' <-> ')}\n`);
if (circles.length) process.exit(1);
process.stdout.write(`no import circles in ${files.length} files\n`);
