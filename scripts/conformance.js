#!/usr/bin/env node
// `npm run conformance`: the official MCP conformance suite against `mcphost serve --transport http`.
//   1. @modelcontextprotocol/conformance 0.1.16, its fixture-free server scenarios, against mcphost
//      serving the kitchen test backend (test/fixtures/conformance.mcprc.yaml).
//   2. 0.2.0-alpha.12 (the 2026-07-28 revision and its extensions), every server scenario it lists
//      for 2025-11-25, 2026-07-28 and the extensions, against mcphost serving the suite's fixture
//      backend (test/fixtures/conformance/) — "direct" —, and against a second mcphost that mounts
//      the first as a server with `prefix: false` — "proxied" —, which must be transparent.
// The suite needs Node ≥ 22 (it imports fs.globSync), so a Node 22 binary from the npm package
// node-linux-<arch> is installed into .cache/ for this run only; the project itself stays on Node 20.
// A scenario left out on purpose is in SKIP with its reason (README, "Conformance").
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SUITE_01 = '0.1.16';
const SUITE_02 = '0.2.0-alpha.12';
const SDK_PIN = '1.32.2'; // 0.1.16 asks for ^1.27; pinned to the release it was verified with
const NODE22 = '22.23.3';
const SCENARIOS_01 = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
  'logging-set-level',
];
/** Revisions (and extensions) whose server scenarios the 0.2 run covers. */
const REVISIONS = ['2025-11-25', '2026-07-28', 'extension'];
/** Scenarios left out, per run, with the reason (the README lists them): none at present. */
const SKIP = { direct: {}, proxied: {} };
/**
 * Scenarios run at once: three against mcphost itself, one at a time through the proxy, whose
 * mounted connection is shared: a mounted server's log messages name no call, so they are relayed
 * only while calls of one client are in flight (README, "The protocol").
 */
const PARALLEL = { direct: 3, proxied: 1 };

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = path.join(repo, '.cache', 'conformance');
// A focused run: scenario names as arguments; `--proxied` runs only the proxied part (the direct
// mcphost still serves as its upstream); `--with-skipped` runs the scenarios SKIP lists too.
const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (flags.has('--with-skipped')) for (const part of Object.values(SKIP)) for (const name of Object.keys(part)) delete part[name];

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

function suite(version) {
  const dir = path.join(cache, `suite-${version}`);
  npmInstall(dir, {
    name: 'conformance-runner',
    private: true,
    dependencies: { '@modelcontextprotocol/conformance': version },
    // 0.2 brings its own SDK; 0.1 is pinned to the one it was verified with.
    ...(version === SUITE_01 && { overrides: { '@modelcontextprotocol/sdk': SDK_PIN } }),
  });
  return path.join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
}

/** Starts `mcphost serve --transport http` with `config`; resolves with its URL. */
function serve(config, env = {}) {
  const child = spawn(
    process.execPath,
    [path.join(repo, 'bin/run.js'), 'serve', '--transport', 'http', '--port', '0', '--config', config],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    },
  );
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`mcphost did not start:\n${stderr}`)), 30_000);
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

function runScenario(node, cli, url, scenario, dir) {
  return new Promise((resolve) => {
    execFile(node, [cli, 'server', '--url', url, '--scenario', scenario, '-o', dir], { timeout: 180_000 }, () => resolve());
  });
}

/** Runs `scenarios` against `url`; prints a line per scenario and returns [passed, failed] checks. */
async function run(label, node, cli, url, scenarios, skip = {}, parallel = 3) {
  const out = mkdtempSync(path.join(tmpdir(), `mcphost-conformance-${label.replace(/\W+/g, '-')}-`));
  console.log(`\n${label}: ${scenarios.length} scenarios against ${url}`);
  for (const [scenario, why] of Object.entries(skip)) console.log(`SKIP ${scenario}: ${why}`);
  const todo = scenarios.filter((s) => !(s in skip));
  let passed = 0;
  let failed = 0;
  let scenariosFailed = 0;
  const queue = [...todo];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let scenario = queue.shift(); scenario; scenario = queue.shift()) {
        const dir = path.join(out, scenario);
        await runScenario(node, cli, url, scenario, dir);
        const files = existsSync(dir)
          ? readdirSync(dir)
              .map((d) => path.join(dir, d, 'checks.json'))
              .filter(existsSync)
          : [];
        const checks = files.flatMap((f) => JSON.parse(readFileSync(f, 'utf8')));
        const bad = checks.filter((c) => c.status === 'FAILURE');
        const good = checks.filter((c) => c.status === 'SUCCESS').length;
        const warned = checks.filter((c) => c.status === 'WARNING').length;
        if (checks.length === 0) {
          failed++;
          scenariosFailed++;
          console.log(`FAIL ${scenario}: no result`);
          continue;
        }
        passed += good;
        failed += bad.length;
        if (bad.length) scenariosFailed++;
        const tag = bad.length ? 'FAIL' : good ? 'PASS' : 'N/A ';
        console.log(`${tag} ${scenario} (${good}/${checks.length} checks${warned ? `, ${warned} warnings` : ''})`);
        for (const c of bad) console.log(`     ${c.id}: ${(c.errorMessage ?? c.description ?? '').replace(/\s+/g, ' ').slice(0, 300)}`);
      }
    }),
  );
  console.log(
    `${label}: ${todo.length - scenariosFailed}/${todo.length} scenarios, ${passed} checks passed, ${failed} failed (results in ${out})`,
  );
  return [passed, failed];
}

/** The server scenarios 0.2 lists for the revisions in REVISIONS. */
function scenarios02(node, cli) {
  const listed = execFileSync(node, [cli, 'list', '--server']).toString();
  const names = [];
  for (const m of listed.matchAll(/^\s+- (\S+) \[([^\]]*)\]/gm)) {
    if (m[2].split(',').some((r) => REVISIONS.includes(r.trim()))) names.push(m[1]);
  }
  return only.length ? names.filter((n) => only.includes(n)) : names;
}

const node = node22();
const children = [];
const totals = [0, 0];
const add = ([p, f]) => {
  totals[0] += p;
  totals[1] += f;
};
try {
  console.log(`node ${execFileSync(node, ['-v']).toString().trim()}`);
  if (only.length === 0 && !flags.has('--proxied')) {
    const cli01 = suite(SUITE_01);
    const plain = await serve(path.join(repo, 'test/fixtures/conformance.mcprc.yaml'));
    children.push(plain.child);
    add(await run(`conformance ${SUITE_01} (kitchen backend, fixture-free scenarios)`, node, cli01, plain.url, SCENARIOS_01));
  }
  const cli02 = suite(SUITE_02);
  const list = scenarios02(node, cli02);
  const direct = await serve(path.join(repo, 'test/fixtures/conformance/mcprc.yaml'));
  children.push(direct.child);
  if (!flags.has('--proxied'))
    add(await run(`conformance ${SUITE_02} direct`, node, cli02, direct.url, list, SKIP.direct, PARALLEL.direct));
  const proxy = await serve(path.join(repo, 'test/fixtures/conformance/proxy.mcprc.yaml'), { CONFORMANCE_UPSTREAM: direct.url });
  children.push(proxy.child);
  add(await run(`conformance ${SUITE_02} proxied`, node, cli02, proxy.url, list, SKIP.proxied, PARALLEL.proxied));
} finally {
  for (const child of children) child.kill('SIGTERM');
}
console.log(`\nconformance: ${totals[0]} passed, ${totals[1]} failed`);
process.exit(totals[1] === 0 && totals[0] > 0 ? 0 : 1);
