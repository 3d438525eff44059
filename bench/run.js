#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.js in turn (each prints its own figures). Pass names to
// run a subset: `npm run bench -- host godot`.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n=== ${file}\n`);
  try {
    execFileSync(process.execPath, [path.join(here, file)], { stdio: 'inherit' });
  } catch {
    failed++;
    process.stdout.write(`!!! ${file} failed\n`);
  }
}
process.exit(failed ? 1 : 0);
