#!/usr/bin/env node
// `npm run conformance`: runs the official MCP conformance suite's fixture-free server scenarios
// against `mcphost serve --transport http`. The suite needs Node ≥ 22 (it imports fs.globSync), so
// a Node 22 binary from the npm package node-linux-<arch> is installed into .cache/ for this run
// only, together with the pinned suite; the project itself stays on Node 20.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CONFORMANCE = '0.1.16';
const SDK_PIN = '1.32.2'; // the suite asks for ^1.27; pinned to the release it was verified with
const NODE22 = '22.23.3';
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
  'logging-set-level',
];

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = path.join(repo, '.cache', 'conformance');

function npmInstall(dir, pkg) {
  if (existsSync(path.join(dir, '.ok'))) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  writeFileSync(path.join(dir, '.ok'), '');
}

function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  if (!arch) throw new Error(`no node-linux package for ${process.arch}`);
  const dir = path.join(cache, `node-${NODE22}`);
  npmInstall(dir, { name: 'node22', private: true, dependencies: { [`node-linux-${arch}`]: NODE22 } });
  return path.join(dir, 'node_modules', `node-linux-${arch}`, 'bin', 'node');
}

function suite() {
  const dir = path.join(cache, `suite-${CONFORMANCE}`);
  npmInstall(dir, {
    name: 'conformance-runner',
    private: true,
    dependencies: { '@modelcontextprotocol/conformance': CONFORMANCE },
    overrides: { '@modelcontextprotocol/sdk': SDK_PIN },
  });
  return path.join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
}

function serve() {
  const child = spawn(
    process.execPath,
    [
      path.join(repo, 'bin/run.js'),
      'serve',
      '--transport',
      'http',
      '--port',
      '0',
      '--config',
      path.join(repo, 'test/fixtures/conformance.mcprc.yaml'),
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`mcphost did not start:\n${stderr}`)), 20_000);
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /serving .* on (http:\/\/\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], child });
      }
    });
    child.on('exit', (code) => reject(new Error(`mcphost exited (${code}):\n${stderr}`)));
  });
}

const node = node22();
const cli = suite();
const { url, child } = await serve();
const out = mkdtempSync(path.join(tmpdir(), 'mcphost-conformance-'));
console.log(`conformance ${CONFORMANCE} (node ${execFileSync(node, ['-v']).toString().trim()}) against ${url}`);
let passed = 0;
let failed = 0;
try {
  for (const scenario of SCENARIOS) {
    const dir = path.join(out, scenario);
    try {
      execFileSync(node, [cli, 'server', '--url', url, '--scenario', scenario, '-o', dir], { stdio: 'ignore', timeout: 120_000 });
    } catch {
      // The verdicts are read from checks.json below; a non-zero exit alone says nothing more.
    }
    const files = existsSync(dir)
      ? readdirSync(dir)
          .map((d) => path.join(dir, d, 'checks.json'))
          .filter(existsSync)
      : [];
    const checks = files.flatMap((f) => JSON.parse(readFileSync(f, 'utf8')));
    const bad = checks.filter((c) => c.status === 'FAILURE');
    const good = checks.filter((c) => c.status === 'SUCCESS').length;
    if (checks.length === 0) {
      failed++;
      console.log(`FAIL ${scenario}: no result`);
      continue;
    }
    passed += good;
    failed += bad.length;
    console.log(`${bad.length ? 'FAIL' : 'PASS'} ${scenario} (${good}/${checks.length} checks)`);
    for (const c of bad) console.log(`     ${c.id}: ${(c.errorMessage ?? c.description ?? '').replace(/\s+/g, ' ').slice(0, 300)}`);
  }
} finally {
  child.kill('SIGTERM');
}
console.log(`conformance: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
