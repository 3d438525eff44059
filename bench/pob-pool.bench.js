#!/usr/bin/env node
// pob-pool: the pool of PoB workers under many clients, with a real Path of Building when POB_PATH
// is set, else the fake PoB in test/fixtures (which measures only the pool and protocol; say so
// when quoting). Four builds from ../shared/data/pob-builds (two on tree 3.26, two on 3.13).
//  1. PoB calculations per second (pob_lua_calc_with, a what-if through PoB's own calculator) for
//     20 concurrent clients, 5 on each build, with 1 and then 2 workers; loads counted.
//  2. Another client's latency (p50, p95) while one client keeps 30 calls queued, against the same
//     client alone; and how many of the flood's calls ran on its worker between its call arriving
//     and running (the fair queue's promise: at most the one in progress when it arrived).
//  3. The first load (start + load + stats) of a fresh worker with default budgets, then the same
//     with two busy loops pinning both cores, then with the seed's 10 s budgets on that loaded
//     machine: the time it took, and how many attempts (before the budgets doubled, every retry
//     of a load past 10 s failed the same way).
// The machine's load (os.loadavg) is printed with each part: other processes change the figures.
// Run after `npm run build`: `node bench/pob-pool.bench.js` (BENCH_CALLS: calls per client).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configSchema } from '../dist/plugins/pob/config.js';
import { PobPool } from '../dist/plugins/pob/live/pool.js';
import { silentLogger } from '../dist/src/lib/logger.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const REAL = process.env.POB_PATH;
const POB = REAL ?? path.resolve(here, '../test/fixtures/pob/fake-pob');
const DATA = process.env.MCPHOST_SHARED_DATA ?? path.resolve(here, '../../shared/data');
const FILES = ['occvortex-3_26.xml', 'dual-wield-cospris-coc-3_26.xml', 'occvortex-3_13.xml', 'dual-savior-3_13.xml'];
const BUILDS = FILES.map((f) => readFileSync(path.join(DATA, 'pob-builds', f), 'utf8'));
const CLIENTS = 20;
const CALLS = Number(process.env.BENCH_CALLS ?? (REAL ? 3 : 20));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'mcphost-pob-pool-bench-'));

const now = () => performance.now();
const r1 = (x) => Math.round(x * 10) / 10;
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

function makePool(workers, settings = {}) {
  const config = configSchema.parse({
    pobPath: POB,
    lua: { enabled: true, workers, store: path.join(tmp, 'store'), maxQueuedPerClient: 1000, maxQueued: 10_000 },
    restartAfterLoads: 0,
    maxRssMb: 0,
    ...settings,
  });
  return new PobPool(config, silentLogger, tmp);
}

const loadsOf = (pool) => pool['workers'].reduce((n, w) => n + w.loads, 0);

/** Stores the builds and finds one allocated node of each, for the what-ifs. */
async function prepare(pool) {
  const ids = [];
  const nodes = [];
  for (const xml of BUILDS) {
    const id = await pool.store.put(xml);
    const { value: tree } = await pool.run({ client: 'prepare', tool: 'bench', build: id, run: (w) => w.call('get_tree', {}, 'bench') });
    ids.push(id);
    nodes.push(tree.nodes[Math.floor(tree.nodes.length / 2)]);
  }
  return { ids, nodes };
}

/** One what-if on build `build`; `onRun(worker)` is told when a worker runs the call. */
function calc(pool, client, build, { ids, nodes }, onRun = () => undefined) {
  return pool.run({
    client,
    tool: 'bench',
    build: ids[build],
    run: (w) => {
      onRun(w);
      return w.call('calc_with', { removeNodes: [nodes[build]], fields: ['Life', 'CombinedDPS'] }, 'bench');
    },
  });
}

async function throughput(workers) {
  const pool = makePool(workers);
  try {
    await pool.start();
    const builds = await prepare(pool);
    const loadsBefore = loadsOf(pool);
    const t0 = now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = 0; i < CALLS; i++) await calc(pool, `client-${c}`, c % BUILDS.length, builds);
      }),
    );
    const seconds = (now() - t0) / 1000;
    const calcs = CLIENTS * CALLS;
    const out = {
      workers,
      calcs,
      seconds: r1(seconds),
      perSecond: r1(calcs / seconds),
      loads: loadsOf(pool) - loadsBefore,
      loadavg: load(),
    };
    console.log(
      `${workers} worker(s): ${calcs} calc_with from ${CLIENTS} clients on ${BUILDS.length} builds in ${out.seconds} s = ${out.perSecond}/s (${out.loads} loads; load average ${out.loadavg})`,
    );
    return out;
  } finally {
    await pool.close();
  }
}

async function flood() {
  const pool = makePool(2);
  try {
    await pool.start();
    const builds = await prepare(pool);
    // How many of the flood's calls ran, on the worker the victim's call then got, between the
    // victim's call arriving and running: the calls it waited behind.
    const floodStarted = [0, 0];
    const victim = async (n) => {
      const times = [];
      const overtaken = [];
      for (let i = 0; i < n; i++) {
        const before = [...floodStarted];
        const t = now();
        await calc(pool, 'victim', 2, builds, (w) => overtaken.push(floodStarted[w.index] - before[w.index]));
        times.push(now() - t);
      }
      return { times, overtaken };
    };
    const alone = await victim(CALLS * 5);
    let flooding = true;
    const flooder = async (lane) => {
      while (flooding) {
        await calc(pool, 'flood', lane % 2, builds, (w) => floodStarted[w.index]++).catch(() => undefined);
      }
    };
    const lanes = Array.from({ length: 30 }, (_, i) => flooder(i));
    await new Promise((r) => setTimeout(r, 200));
    const queued = pool.status().queued;
    const during = await victim(CALLS * 5);
    flooding = false;
    await Promise.all(lanes);
    const out = {
      aloneP50: r1(pct(alone.times, 50)),
      aloneP95: r1(pct(alone.times, 95)),
      floodP50: r1(pct(during.times, 50)),
      floodP95: r1(pct(during.times, 95)),
      floodQueued: queued,
      overtakenMax: Math.max(...during.overtaken),
      overtakenP50: pct(during.overtaken, 50),
      loadavg: load(),
    };
    console.log(
      `another client's calc_with, 2 workers: alone p50 ${out.aloneP50} ms p95 ${out.aloneP95} ms; while one client keeps 30 calls in flight (${queued} queued) p50 ${out.floodP50} ms p95 ${out.floodP95} ms; flood calls it waited behind on its worker: median ${out.overtakenP50}, max ${out.overtakenMax} (load average ${out.loadavg})`,
    );
    return out;
  } finally {
    await pool.close();
  }
}

async function firstLoad(label, budgets = {}) {
  const pool = makePool(1, {
    lua: { enabled: true, workers: 1, store: path.join(tmp, `store-${label.replace(/\W+/g, '-')}`) },
    ...budgets,
  });
  const t0 = now();
  let attempts = 0;
  let error;
  try {
    for (; attempts < 5;) {
      attempts++;
      try {
        const id = await pool.store.put(BUILDS[0]);
        await pool.run({ client: 'first', tool: 'bench', load: { id, xml: BUILDS[0] } });
        await pool.run({ client: 'first', tool: 'bench', build: id, run: (w) => w.call('get_stats', { fields: ['Life'] }, 'bench') });
        error = undefined;
        break;
      } catch (e) {
        error = e.message;
      }
    }
    const out = { ms: Math.round(now() - t0), attempts, ok: error === undefined, loadavg: load(), budgets: pool.budgets.snapshot() };
    console.log(
      `first load (start + load + stats), ${label}: ${out.ms} ms in ${attempts} attempt(s)${error ? `, failed: ${error}` : ''}; budgets then start ${out.budgets.start} ms, load ${out.budgets.load} ms (load average ${out.loadavg})`,
    );
    return out;
  } finally {
    await pool.close();
  }
}

async function withBusyLoops(fn) {
  const loops = [0, 1].map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  try {
    await new Promise((r) => setTimeout(r, 1000));
    return await fn();
  } finally {
    for (const l of loops) l.kill('SIGKILL');
  }
}

const what = REAL ? `real PoB at ${REAL}` : 'the fake PoB (pool and protocol only; set POB_PATH for PoB figures)';
console.log(`pob-pool bench: ${what}; ${os.availableParallelism()} cores; load average ${load()}`);
try {
  const one = await throughput(1);
  const two = await throughput(2);
  console.log(`2 workers / 1 worker: ${r1(two.perSecond / one.perSecond)}x`);
  const fairness = await flood();
  const quiet = await firstLoad('as the machine is');
  const busy = await withBusyLoops(() => firstLoad('two busy loops pinning both cores'));
  // The budgets the seed had (10 s per request, loads included): the doubling is what ends the retries.
  const seedBudgets = await withBusyLoops(() =>
    firstLoad('two busy loops, 10 s start and load budgets', { startTimeoutMs: 10_000, loadTimeoutMs: 10_000 }),
  );
  console.log(
    JSON.stringify({
      bench: 'pob-pool',
      pob: REAL ? 'real' : 'fake',
      throughput: [one, two],
      fairness,
      firstLoad: { quiet, busy, seedBudgets },
    }),
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
