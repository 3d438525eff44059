#!/usr/bin/env node
// exile:snapshot against the replica HUD (test/fixtures/exile-hud/replica-server.mjs: ExileApi's graph
// as its source builds it, served over Streamable HTTP in its own process), through the real remote
// provider, with the default budget. Targets (issue 10): a 300-entity HUD recorded in under 30 s,
// a 5,000-entity HUD finished (complete or cut by the budget) in under 5 minutes; the same for a HUD
// that shows no Address. Also: hostile globs and the Replace chain of issue 14 in snapshot mode, with
// the regex the glob matcher replaced run in a child process under a time limit for comparison.
//   npm run build && node bench/exile-record.bench.js [--entities 300,5000] [--quick]
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRemoteProvider } from '../dist/plugins/exile/remote.js';
import { createSnapshotProvider, parseSnapshot, recordSnapshot } from '../dist/plugins/exile/snapshot/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPLICA = path.join(here, '../test/fixtures/exile-hud/replica-server.mjs');
const argv = process.argv.slice(2);
const opt = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const sizes = opt('--entities', '300,5000').split(',').map(Number);
const quiet = { error() {}, warn() {}, info() {}, debug() {}, child: () => quiet };
const ctx = { signal: new AbortController().signal };
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** The replica HUD in its own process; resolves once it prints "listening <port>". */
function startReplica(args) {
  const child = spawn(process.execPath, [REPLICA, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve({ port: Number(m[1]), stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGKILL'))) });
    });
    child.once('exit', (code) => reject(new Error(`replica HUD exited with ${code}`)));
  });
}

async function recordOnce(entities, addresses) {
  const hud = await startReplica(['--port', '0', '--entities', String(entities), ...(addresses ? [] : ['--no-address'])]);
  const remote = createRemoteProvider({ url: `http://127.0.0.1:${hud.port}/mcp` });
  try {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const doc = await recordSnapshot(remote, { logger: quiet });
    const seconds = (performance.now() - t0) / 1000;
    const used = process.cpuUsage(cpu);
    const bytes = JSON.stringify(doc).length;
    const snapshot = parseSnapshot(JSON.stringify(doc));
    const answers = await createSnapshotProvider(snapshot).eval({ expr: 'Player.GetComponent<Life>().CurHP', depth: 0 }, ctx);
    const row = {
      entities,
      addresses,
      seconds: Math.round(seconds * 10) / 10,
      recorderCpuSeconds: Math.round((used.user + used.system) / 1e5) / 10,
      calls: doc.source.used.calls,
      objects: doc.source.used.objects,
      complete: doc.source.complete,
      cut: doc.source.cut ? `${doc.source.cut.reason}: ${doc.source.cut.objects} objects` : undefined,
      megabytes: Math.round(bytes / 1e5) / 10,
      playerHp: answers,
    };
    console.log(
      `record ${entities} entities${addresses ? '' : ' (no Address shown)'}: ${row.seconds} s (recorder cpu ${row.recorderCpuSeconds} s), ` +
        `${row.calls} calls, ${row.objects} objects, ${row.megabytes} MB, ${row.complete ? 'complete' : `cut by ${row.cut}`}; load ${load()}`,
    );
    return row;
  } finally {
    await remote.close();
    await hud.stop();
  }
}

/** The regex the glob matcher replaced, in a child with a time limit (it does not come back). */
function oldRegex(pattern, name, limitMs) {
  const script = `const g=${JSON.stringify(pattern)};const re=new RegExp('^'+[...g].map(c=>c==='*'?'.*':c==='?'?'.':c).join('')+'$','i');re.test(${JSON.stringify(name)});`;
  const t0 = performance.now();
  try {
    execFileSync(process.execPath, ['-e', script], { timeout: limitMs, stdio: 'ignore' });
    return `${Math.round(performance.now() - t0)} ms`;
  } catch {
    return `no answer in ${limitMs} ms (killed)`;
  }
}

async function hostile() {
  const long = 'e'.repeat(5000);
  const snapshot = parseSnapshot({
    format: 'mcphost-exile-snapshot',
    version: 1,
    roots: { Player: { $type: 'Game.Long' } },
    types: { 'Game.Long': { type: 'Game.Long', kind: 'class', members: [{ name: `${long}Q`, kind: 'field', type: 'Int32' }] } },
  });
  const provider = createSnapshotProvider(snapshot);
  const out = {};
  for (const pattern of ['*e*e*e*e*e*e*e*e*e*e*e*e*Q', '*?*?*?*?*?*?*?*?*?*?*?*?!']) {
    const t0 = performance.now();
    await provider.explore({ target: `search:${pattern}`, depth: 1, includePrivate: true, limit: 50 }, ctx);
    const ms = Math.round((performance.now() - t0) * 10) / 10;
    const before = oldRegex(pattern, `${'e'.repeat(40)}x`, 3000);
    out[pattern] = { ms, regexOn41Chars: before };
    console.log(`search:${pattern} over a 5,001-character name: ${ms} ms (the old regex on a 41-character name: ${before})`);
  }
  const chain = `"aaaaaaaaaa"${'.Replace("a","aaaaaaaaaa")'.repeat(7)}`;
  const rss = process.memoryUsage().rss;
  const t0 = performance.now();
  const error = await provider.eval({ expr: chain, depth: 2 }, ctx).catch((e) => e.message);
  out.replace = { ms: Math.round(performance.now() - t0), rssGrowthMb: Math.round((process.memoryUsage().rss - rss) / 1e6), error };
  console.log(`Replace ×7: ${out.replace.ms} ms, RSS +${out.replace.rssGrowthMb} MB: ${error}`);
  return out;
}

console.log(`machine: load average ${load()} on ${os.cpus().length} cpus`);
const rows = [];
for (const n of sizes) {
  rows.push(await recordOnce(n, true));
  if (!argv.includes('--quick')) rows.push(await recordOnce(n, false));
}
const hostileFigures = await hostile();
const within = (r) => r.seconds <= (r.entities <= 300 ? 30 : 300);
console.log(
  JSON.stringify({
    bench: 'exile-record',
    targets: { entities300Seconds: 30, entities5000Seconds: 300 },
    recordings: rows,
    hostile: hostileFigures,
    ok: rows.every(within) && rows.filter((r) => r.entities <= 300).every((r) => r.complete),
  }),
);
