#!/usr/bin/env node
// Start-up of a shell one-shot, against `node -e 0` with the same node in the same run (interleaved
// run by run, so load on the machine falls on all three alike): `mcphost --version` and a one-shot
// `mcphost call` of a trivial in-process tool (bench/fixtures/trivial). Goals (issue 25): --version
// within +100 ms of node -e 0, the call within +250 ms. Prints medians and the overheads. Also timed,
// with no goal: the same tool in a plugin outside mcphost's folder (a third-party plugin), which
// needs the module hook that lends it `mcphost` and `zod` (src/loader/host-modules.ts): Node 20 runs
// such hooks in a thread of their own, which start-up waits for. And, where util-linux's `script` is
// there to give it a terminal, the call as a person at a terminal runs it (its answer laid out for
// reading), against `node -e 0` run the same way.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.resolve(here, '../bin/run.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 21);

const work = mkdtempSync(path.join(tmpdir(), 'mcphost-startup-'));
const config = path.join(work, '.mcprc.yaml');
const outside = path.join(work, 'outside.js');
copyFileSync(path.join(here, 'fixtures/trivial/index.js'), outside);
writeFileSync(
  config,
  `plugins:\n  bench:\n    module: ${path.join(here, 'fixtures/trivial/index.js')}\n  outside:\n    module: ${outside}\nlog:\n  level: warn\n`,
);
const env = { ...process.env, HOME: work, XDG_DATA_HOME: path.join(work, 'data'), XDG_CONFIG_HOME: path.join(work, 'config') };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (args) => {
  const t0 = performance.now();
  if (args[0] === 'script') execFileSync(args[0], args.slice(1), { cwd: work, env, stdio: 'ignore' });
  else execFileSync(process.execPath, args, { cwd: work, env, stdio: 'ignore' });
  return performance.now() - t0;
};

const cases = {
  node: ['-e', '0'],
  version: [BIN, '--version'],
  call: [BIN, 'call', 'bench', 'echo', '--message', 'hi', '--config', config],
  outside: [BIN, 'call', 'outside', 'echo', '--message', 'hi', '--config', config],
};
const quote = (args) => [process.execPath, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
let haveScript = true;
try {
  execFileSync('script', ['-qec', 'true', '/dev/null'], { stdio: 'ignore' });
} catch {
  haveScript = false;
}
if (haveScript) {
  cases.ttyNode = ['script', '-qec', quote(cases.node), '/dev/null'];
  cases.ttyCall = ['script', '-qec', quote(cases.call), '/dev/null'];
}
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
try {
  for (const args of Object.values(cases)) time(args); // warm the file cache
  for (let i = 0; i < RUNS; i++) for (const [name, args] of Object.entries(cases)) times[name].push(time(args));
} finally {
  rmSync(work, { recursive: true, force: true });
}
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(median(v))]));
const summary = {
  runs: RUNS,
  load1: Math.round(loadavg()[0] * 100) / 100,
  node_e0_ms: m.node,
  version_ms: m.version,
  call_ms: m.call,
  version_over_node_ms: m.version - m.node,
  call_over_node_ms: m.call - m.node,
  call_outside_ms: m.outside,
  call_outside_over_node_ms: m.outside - m.node,
  ...(haveScript && { call_on_terminal_ms: m.ttyCall, call_on_terminal_over_node_ms: m.ttyCall - m.ttyNode }),
};
summary.goals = { version_within_100ms: summary.version_over_node_ms <= 100, call_within_250ms: summary.call_over_node_ms <= 250 };
console.log(
  `node -e 0 ${m.node} ms · mcphost --version ${m.version} ms (+${summary.version_over_node_ms}) · mcphost call ${m.call} ms (+${summary.call_over_node_ms}); a plugin outside the package ${m.outside} ms (+${summary.call_outside_over_node_ms})${haveScript ? `; on a terminal ${m.ttyCall} ms (+${summary.call_on_terminal_over_node_ms} over node -e 0 there)` : ''} — medians of ${RUNS}, load ${summary.load1}`,
);
console.log(JSON.stringify({ bench: 'startup', ...summary }));
