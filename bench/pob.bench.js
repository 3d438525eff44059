#!/usr/bin/env node
// pob: the Lua bridge with a real Path of Building when POB_PATH is set, or the pob-api fork's own
// stdio API when POB_FORK_PATH is set instead (its calc_with is an edit and undo: compare its
// figures with mcphost's server on the same build), else the fake PoB in test/fixtures, which
// measures only the protocol. Cold start to ready, loads, get_stats,
// calc_with, a persistent edit with recalc, and RSS after 20 loads. Goals: warm get_stats round
// trip ≤ 20 ms; calc_with within 10% of the Lua-side time; bridge overhead per request ≤ 1 ms.
// Run after `npm run build`: `node bench/pob.bench.js` (BENCH_ITER sets the iteration count).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { configSchema } from '../dist/plugins/pob/config.js';
import { PobPool } from '../dist/plugins/pob/live/pool.js';
import { residentBytes } from '../dist/src/kit/index.js';
import { silentLogger } from '../dist/src/lib/logger.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FORK = process.env.POB_PATH ? undefined : process.env.POB_FORK_PATH;
const REAL = process.env.POB_PATH ?? FORK;
const POB = process.env.POB_PATH ?? path.resolve(here, '../test/fixtures/pob/fake-pob');
const DATA = process.env.MCPHOST_SHARED_DATA ?? path.resolve(here, '../../shared/data');
const ITER = Number(process.env.BENCH_ITER ?? 50);
const BUILD = REAL
  ? readFileSync(path.join(DATA, 'pob-builds/occvortex-3_26.xml'), 'utf8')
  : '<PathOfBuilding><Build level="90" className="Witch"/><Tree activeSpec="1"><Spec treeVersion="3_26" classId="3" ascendClassId="1" nodes="1,2,3,401,500" masteryEffects="{500,9500}"/></Tree></PathOfBuilding>';
const OTHER = REAL
  ? readFileSync(path.join(DATA, 'pob-builds/dual-wield-cospris-coc-3_26.xml'), 'utf8')
  : BUILD.replace('level="90"', 'level="80"');

const now = () => performance.now();
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const r2 = (x) => Math.round(x * 100) / 100;

const config = configSchema.parse({
  ...(FORK ? { forkPath: FORK } : { pobPath: POB }),
  lua: { enabled: true, workers: 1 },
  timeoutMs: 120_000,
  restartAfterLoads: 0,
  maxRssMb: 0,
});
// One worker, driven action by action (the pool's build routing is measured by pob-pool.bench.js).
const pool = new PobPool(config, silentLogger, os.tmpdir());
const worker = pool['workers'][0];
const bridge = {
  start: () => pool.start(),
  call: async (action, params) => (await pool.run({ client: 'bench', tool: 'bench', run: (w) => w.call(action, params, 'bench') })).value,
  status: () => pool.status(),
  close: () => pool.close(),
};

/** Round trip (ms) and the Lua-side time the server reported, for one call. */
async function timed(action, params) {
  const t = now();
  const result = await bridge.call(action, params);
  return { ms: now() - t, lua: worker.lastLuaMs ?? 0, result };
}

async function series(label, n, action, params) {
  const rows = [];
  for (let i = 0; i < n; i++) rows.push(await timed(action, typeof params === 'function' ? params(i) : params));
  const trip = rows.map((r) => r.ms);
  const lua = rows.map((r) => r.lua);
  const over = rows.map((r) => r.ms - r.lua);
  const out = {
    median: r2(pct(trip, 50)),
    p95: r2(pct(trip, 95)),
    luaMedian: r2(pct(lua, 50)),
    overheadMedian: r2(pct(over, 50)),
    overheadP95: r2(pct(over, 95)),
  };
  console.log(`${label.padEnd(34)} median ${out.median} ms  p95 ${out.p95} ms  (Lua ${out.luaMedian} ms, bridge ${out.overheadMedian} ms)`);
  return { out, rows };
}

const what = FORK ? `the pob-api fork's stdio API at ${FORK}` : REAL ? `real PoB at ${REAL}` : 'fake PoB (set POB_PATH for real figures)';
console.log(`pob bench: ${what}, ${ITER} iterations`);
const t0 = now();
await bridge.start();
const coldStart = r2(now() - t0);
console.log(`cold start to ready                 ${coldStart} ms`);
const firstLoad = await timed('load_build_xml', { xml: BUILD });
console.log(`first load                          ${r2(firstLoad.ms)} ms (Lua ${r2(firstLoad.lua)} ms)`);
const loads = await series('later loads', Math.min(ITER, 10), 'load_build_xml', (i) => ({ xml: i % 2 ? BUILD : OTHER }));
await bridge.call('load_build_xml', { xml: BUILD });
const ping = await series('ping', ITER, 'ping', {});
const statsAll = await series('get_stats (all)', ITER, 'get_stats', {});
const statsFew = await series('get_stats (5 fields)', ITER, 'get_stats', {
  fields: ['Life', 'EnergyShield', 'TotalEHP', 'CombinedDPS', 'FullDPS'],
});
const tree = await bridge.call('get_tree', {});
const ids = tree.nodes;
const calc = await series('calc_with (remove one node)', ITER, 'calc_with', (i) => ({ removeNodes: [ids[i % ids.length]] }));
// calc_with reports its own calculator time (luaMs) too; compare the round trip with it.
// (The fork reports no Lua-side time.)
const calcRatio = FORK
  ? null
  : r2(
      pct(
        calc.rows.map((r) => r.ms / Math.max(r.result.luaMs, 1e-6)),
        50,
      ),
    );
if (calcRatio !== null) console.log(`calc_with round trip / PoB calc time  median ${calcRatio}×`);
const node = ids[Math.floor(ids.length / 2)];
const edit = await series('persistent edit + recalc', Math.min(ITER, 20), 'update_tree_delta', (i) =>
  i % 2 ? { addNodes: [node] } : { removeNodes: [node] },
);
const exportXml = await series('export_build_xml', Math.min(ITER, 20), 'export_build_xml', {});

const status = bridge.status();
const rssStart = await residentBytes(status.pid);
for (let i = 0; i < 20; i++) await bridge.call('load_build_xml', { xml: i % 2 ? BUILD : OTHER });
const rssAfter = await residentBytes(status.pid);
console.log(
  `RSS                                 ${Math.round(rssStart / 1048576)} MiB after the benchmark's first loads, ${Math.round(rssAfter / 1048576)} MiB after 20 more loads`,
);
await bridge.close();

const summary = {
  bench: 'pob',
  pob: FORK ? 'pob-api fork' : REAL ? 'real' : 'fake',
  coldStartMs: coldStart,
  firstLoadMs: r2(firstLoad.ms),
  loadMs: loads.out.median,
  pingMs: ping.out.median,
  getStatsAllMs: statsAll.out.median,
  getStatsAllP95Ms: statsAll.out.p95,
  getStatsFieldsMs: statsFew.out.median,
  calcWithMs: calc.out.median,
  calcWithLuaMs: FORK
    ? null
    : r2(
        pct(
          calc.rows.map((r) => r.result.luaMs),
          50,
        ),
      ),
  calcWithRatio: calcRatio,
  editRecalcMs: edit.out.median,
  exportMs: exportXml.out.median,
  bridgeOverheadMs: statsFew.out.overheadMedian,
  bridgeOverheadAllStatsMs: statsAll.out.overheadMedian,
  rssMiB: Math.round(rssAfter / 1048576),
  goals: {
    getStatsWarmLe20ms: statsAll.out.median <= 20,
    calcWithWithin10pct: calcRatio === null ? null : calcRatio <= 1.1,
    bridgeOverheadLe1ms: statsFew.out.overheadMedian <= 1 && ping.out.median <= 1,
  },
};
console.log(JSON.stringify(summary));
