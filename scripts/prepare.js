#!/usr/bin/env node
// The `prepare` script: npm runs it after `npm ci`/`npm install` in a clone and when it installs
// mcphost from git (`npm install -g git+https://…`), and it builds dist/. In a clone that is
// being worked on the build tools are installed, and it is `npm run build`. A global git install is
// different (npm/cli#8440): npm prepares the clone with a nested `npm install` that inherits
// --global, so that install goes to the global prefix and the clone has no node_modules at all when
// prepare runs ("tsc: not found"). Then the tools are installed into the clone first, from its
// package-lock.json (`npm ci`, devDependencies included, the global settings dropped, no scripts,
// so this script does not run again), and the build runs with them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** npm as the npm that runs this script (npm_execpath), so the nested runs use its version and cache. */
function npm(args, env) {
  const cli = process.env.npm_execpath;
  const [command, argv] = cli && cli.endsWith('.js') ? [process.execPath, [cli, ...args]] : ['npm', args];
  const run = spawnSync(command, argv, { cwd: root, env, stdio: 'inherit' });
  if (run.error) throw run.error;
  if (run.status !== 0) process.exit(run.status ?? 1);
}

if (!existsSync(path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'))) {
  process.stderr.write('mcphost prepare: the build tools are not installed here (a global git install); installing them from package-lock.json\n');
  const env = { ...process.env };
  // What makes the nested install global; the rest (cache, offline, registry) is kept.
  for (const key of Object.keys(env)) if (/^npm_config_(global|prefix|location)$/i.test(key)) delete env[key];
  npm(['ci', '--global=false', '--location=project', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund'], env);
}
npm(['run', 'build'], process.env);
