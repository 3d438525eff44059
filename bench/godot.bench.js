#!/usr/bin/env node
// Benchmarks of the godot plugin (run `npm run build` first):
//   - cold parse + index, warm start from the saved index, search latency (p95, single- and
//     multi-term), RSS — on the shared Godot 4 reference, the Godot 3 one, and a corpus made by
//     replicating the Godot 4 reference under renamed classes (GODOT_BENCH_REPLICAS copies, default 2);
//   - relevance (MRR, hit@3) of test/fixtures/godot/relevance-queries.json;
//   - wink-bm25-text-search building the same documents, for comparison;
//   - RSS of a real `mcphost serve --plugins godot` after 200 searches over HTTP.
// Each measurement runs in a fresh process (bench/godot-measure.js). Ends with one JSON line.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const shared = process.env.MCPHOST_SHARED_DATA ?? path.resolve(repo, '../shared/data');
const runs = Number(process.env.GODOT_BENCH_RUNS ?? 3);
const replicas = Number(process.env.GODOT_BENCH_REPLICAS ?? 2);
const TARGETS = { coldMs: 1000, warmMs: 200, singleP95: 5, multiP95: 10, rssMB: 100 };
// The plugin parses in worker threads on 3+ cores (one per core but one, up to 3), else in the main thread.
const defaultWorkers = availableParallelism() >= 3 ? Math.min(3, availableParallelism() - 1) : 0;
const otherWorkers = defaultWorkers ? 0 : 1;
const how = (n) => (n ? `in ${n} parse worker(s)` : 'in the main thread');

if (!existsSync(path.join(repo, 'dist/plugins/godot/index.js'))) {
  console.error('godot bench: run `npm run build` first');
  process.exit(1);
}
const godot4 = path.join(shared, 'godot-docs/doc');
if (!existsSync(godot4)) {
  console.error(`godot bench: no Godot reference at ${godot4} (set MCPHOST_SHARED_DATA)`);
  process.exit(1);
}
const work = mkdtempSync(path.join(tmpdir(), 'godot-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

function measure(mode, docDir, indexPath, flags = [], extra = []) {
  const out = execFileSync(process.execPath, [...flags, path.join(here, 'godot-measure.js'), mode, docDir, indexPath ?? '', ...extra], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.trim().split('\n').pop());
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The Godot 4 reference `copies` times over, every class renamed in copies after the first. */
function replicate(copies) {
  const root = path.join(work, `replicated-${copies}`);
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.xml')) files.push(full);
    }
  };
  walk(godot4);
  const names = files.map((f) => path.basename(f, '.xml'));
  for (let k = 0; k < copies; k++) {
    const suffix = k === 0 ? '' : `Copy${k}`;
    const dir = path.join(root, 'classes');
    mkdirSync(dir, { recursive: true });
    files.forEach((file, i) => {
      let xml = readFileSync(file, 'utf8');
      if (suffix) xml = xml.replace(/(<class name="[^"]+)"/, `$1${suffix}"`).replace(/( inherits="[^"]+)"/, `$1${suffix}"`);
      writeFileSync(path.join(dir, `${names[i]}${suffix}.xml`), xml);
    });
  }
  return root;
}

function corpusFigures(label, docDir) {
  const indexPath = path.join(work, `${label}.json`);
  const other = Array.from({ length: runs }, () => measure('cold', docDir, indexPath, ['--expose-gc'], [String(otherWorkers)]));
  const cold = Array.from({ length: runs }, () => measure('cold', docDir, indexPath, ['--expose-gc']));
  const warm = Array.from({ length: runs }, () => measure('warm', docDir, indexPath, ['--expose-gc']));
  const fig = {
    classes: cold[0].classes,
    symbols: cold[0].symbols,
    coldMs: median(cold.map((c) => c.buildMs)),
    coldCpuMs: median(cold.map((c) => c.buildCpuMs)),
    coldRssMB: median(cold.map((c) => c.rssMB)),
    coldOtherWay: { workers: otherWorkers, ms: median(other.map((c) => c.buildMs)), rssMB: median(other.map((c) => c.rssMB)) },
    indexMB: cold[0].indexFileMB,
    warmMs: median(warm.map((w) => w.loadMs)),
    singleP50: median(warm.map((w) => w.single.p50)),
    singleP95: median(warm.map((w) => w.single.p95)),
    multiP50: median(warm.map((w) => w.multi.p50)),
    multiP95: median(warm.map((w) => w.multi.p95)),
    warmRssMB: median(warm.map((w) => w.rssMB)),
    loadedRssMB: median(warm.map((w) => w.loadedRssMB)),
    indexHeapMB: median(warm.map((w) => w.indexHeapMB)),
  };
  const ok = (v, t) => (v <= t ? 'ok' : 'OVER');
  console.log(`\n${label}: ${fig.classes} classes, ${fig.symbols} symbols (index ${fig.indexMB} MB on disk)`);
  console.log(
    `  cold parse + index  ${fig.coldMs} ms ${how(defaultWorkers)} (CPU ${fig.coldCpuMs} ms)  target ≤ ${TARGETS.coldMs} ms  ${ok(fig.coldMs, TARGETS.coldMs)}`,
  );
  console.log(`                      ${fig.coldOtherWay.ms} ms ${how(otherWorkers)} instead (RSS after it ${fig.coldOtherWay.rssMB} MB)`);
  console.log(`  warm start          ${fig.warmMs} ms  target ≤ ${TARGETS.warmMs} ms  ${ok(fig.warmMs, TARGETS.warmMs)}`);
  console.log(
    `  search single-term  p50 ${fig.singleP50} ms, p95 ${fig.singleP95} ms  target p95 ≤ ${TARGETS.singleP95} ms  ${ok(fig.singleP95, TARGETS.singleP95)}`,
  );
  console.log(
    `  search multi-term   p50 ${fig.multiP50} ms, p95 ${fig.multiP95} ms  target p95 ≤ ${TARGETS.multiP95} ms  ${ok(fig.multiP95, TARGETS.multiP95)}`,
  );
  console.log(
    `  RSS (target ≤ ${TARGETS.rssMB} MB): after cold build + save ${fig.coldRssMB} MB ${ok(fig.coldRssMB, TARGETS.rssMB)}; after warm start ${fig.loadedRssMB} MB ${ok(fig.loadedRssMB, TARGETS.rssMB)}; after 540 more searches ${fig.warmRssMB} MB ${ok(fig.warmRssMB, TARGETS.rssMB)}`,
  );
  console.log(
    `                      the loaded index itself is ${fig.indexHeapMB} MB of JS heap (plus its ranking arrays); the rest is Node, the plugin's modules and V8's young generation`,
  );
  return fig;
}

/** RSS of a real server (Linux /proc) after a warm start and 200 searches over HTTP. */
async function serverRss(docDir) {
  if (!existsSync('/proc/self/status')) return undefined;
  const cwd = mkdtempSync(path.join(work, 'serve-'));
  const env = { ...process.env, GODOT_DOC_DIR: docDir, HOME: cwd };
  const warmup = spawn(process.execPath, [path.join(repo, 'bin/run.js'), 'call', 'godot', 'list_classes', '--limit', '1'], {
    cwd,
    env,
    stdio: 'ignore',
  });
  await new Promise((r) => warmup.on('exit', r));
  const child = spawn(
    process.execPath,
    [path.join(repo, 'bin/run.js'), 'serve', '--plugins', 'godot', '--transport', 'http', '--port', '0'],
    { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /serving .* on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
  const idle = rss();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const t = performance.now();
  await client.callTool({ name: 'godot_search', arguments: { query: 'timer' } });
  const firstMs = performance.now() - t;
  const queries = ['timer', 'move a character with collisions', 'play sound', 'node', 'signal when button pressed'];
  for (let i = 0; i < 200; i++) await client.callTool({ name: 'godot_search', arguments: { query: queries[i % queries.length] } });
  await new Promise((r) => setTimeout(r, 500));
  const after = rss();
  await client.close();
  child.kill('SIGTERM');
  return { idleMB: Math.round(idle), firstCallMs: Math.round(firstMs), after200MB: Math.round(after) };
}

console.log(
  `godot bench: ${runs} fresh process(es) per figure, medians; ${availableParallelism()} cores, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
const figures = { godot4: corpusFigures('Godot 4 reference (shared)', godot4) };
const godot3 = path.join(shared, 'godot3-docs/doc');
if (existsSync(godot3)) figures.godot3 = corpusFigures('Godot 3 reference (shared)', godot3);
figures.replicated = corpusFigures(`Godot 4 reference ×${replicas}, renamed classes`, replicate(replicas));

const relevance = measure('relevance', godot4);
console.log(`\nrelevance over ${relevance.queries} queries: MRR ${relevance.mrr}, hit@3 ${relevance.hitAt3} (target ≥ 0.8)`);
console.log(`  not in the top 3: ${relevance.misses.join('; ')}`);

const wink = measure('wink', godot4, undefined, ['--expose-gc']);
console.log(
  `\nwink-bm25-text-search on the same ${wink.symbols} documents: addDoc ${wink.addDocMs} ms + consolidate ${wink.consolidateMs} ms, +${wink.heapMB} MB heap; importJSON ${wink.importMs} ms (${wink.exportMB} MB)`,
);

const server = await serverRss(godot4).catch((error) => ({ error: error.message }));
if (server)
  console.log(
    `\nmcphost serve --plugins godot (HTTP, warm index): RSS ${server.idleMB} MB idle, first search ${server.firstCallMs} ms, RSS ${server.after200MB} MB after 200 searches`,
  );

console.log(
  JSON.stringify({
    bench: 'godot',
    targets: TARGETS,
    ...figures,
    relevance: { mrr: relevance.mrr, hitAt3: relevance.hitAt3, queries: relevance.queries },
    wink,
    server,
  }),
);
