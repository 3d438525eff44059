// One measurement of the godot index in a fresh process (so JIT and caches start cold), for
// bench/godot.bench.js. Prints one JSON line.
//   node bench/godot-measure.js cold <docDir> <indexPath> [workers]   parse + index (and save) from scratch
//   node bench/godot-measure.js warm <docDir> <indexPath>   load the saved index, then time searches
//   node bench/godot-measure.js wink <docDir>               wink-bm25-text-search on the same documents
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '../dist/plugins/godot');
const [mode, docDir, indexPath, workersArg] = process.argv.slice(2);
const workers = workersArg === undefined || workersArg === '' ? undefined : Number(workersArg);
const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const { discover } = await import(`${dist}/corpus/discover.js`);
const { buildIndex } = await import(`${dist}/index/build.js`);
const { saveIndex, loadIndex } = await import(`${dist}/index/persist.js`);
const { DocIndex } = await import(`${dist}/index/doc-index.js`);
const { search } = await import(`${dist}/lookup/search.js`);

const SINGLE = [
  'timer',
  'node',
  'signal',
  'position',
  'texture',
  'animation',
  'physics',
  'button',
  'get',
  'camera',
  'vector',
  'shader',
  'audio',
  'input',
  'tween',
];
const MULTI = [
  'move a character with collisions',
  'play sound',
  'wait for seconds',
  'emit signal when button clicked',
  'load a scene from file',
  'get mouse position in the viewport',
  'apply force to a rigid body',
  'random number in range',
  'draw a line in 2d',
  'save game data to a file',
  'detect when a body enters an area',
  'set the text of a label',
];

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function timeQueries(index, queries, rounds) {
  for (const q of queries) search(index, q, { limit: 10 }); // first touch of each query
  const times = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      const t = performance.now();
      search(index, q, { limit: 10 });
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  return {
    p50: +percentile(times, 50).toFixed(3),
    p95: +percentile(times, 95).toFixed(3),
    max: +times[times.length - 1].toFixed(3),
    n: times.length,
  };
}

if (mode === 'cold') {
  const t0 = performance.now();
  const c0 = cpuMs();
  const corpus = discover(docDir);
  const built = await buildIndex(corpus, { workers });
  const buildMs = performance.now() - t0;
  const cpu = cpuMs() - c0;
  const index = new DocIndex(built, corpus.root);
  const t1 = performance.now();
  saveIndex(indexPath, corpus, built);
  const saveMs = performance.now() - t1;
  global.gc?.();
  console.log(
    JSON.stringify({
      mode,
      workers: workers ?? 'default',
      classes: index.classes.length,
      symbols: index.docs.length,
      warnings: built.warnings.length,
      buildMs: Math.round(buildMs),
      buildCpuMs: Math.round(cpu),
      saveMs: Math.round(saveMs),
      rssMB: mb(process.memoryUsage().rss),
      indexFileMB: mb(readFileSync(indexPath).length),
    }),
  );
} else if (mode === 'warm') {
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const corpus = discover(docDir);
  const saved = loadIndex(indexPath, corpus);
  if (!('index' in saved)) throw new Error(`no usable saved index: ${saved.stale}`);
  const index = new DocIndex(saved.index, corpus.root);
  const loadMs = performance.now() - t0;
  global.gc?.();
  const loadedRssMB = mb(process.memoryUsage().rss);
  const indexHeapMB = mb(process.memoryUsage().heapUsed - heapBefore);
  const single = timeQueries(index, SINGLE, 20);
  const multi = timeQueries(index, MULTI, 20);
  global.gc?.();
  console.log(
    JSON.stringify({
      mode,
      classes: index.classes.length,
      loadMs: Math.round(loadMs),
      single,
      multi,
      loadedRssMB,
      indexHeapMB,
      rssMB: mb(process.memoryUsage().rss),
    }),
  );
} else if (mode === 'relevance') {
  const corpus = discover(docDir);
  const index = new DocIndex(await buildIndex(corpus), corpus.root);
  const { queries } = JSON.parse(readFileSync(path.join(here, '../test/fixtures/godot/relevance-queries.json'), 'utf8'));
  let rr = 0;
  let hit3 = 0;
  const misses = [];
  for (const q of queries) {
    const rank = search(index, q.query, { limit: 10 }).findIndex((r) => q.expected.includes(r.name)) + 1;
    if (rank) rr += 1 / rank;
    if (rank && rank <= 3) hit3++;
    else misses.push(`${q.query} (${rank || '>10'})`);
  }
  console.log(
    JSON.stringify({
      mode,
      queries: queries.length,
      mrr: +(rr / queries.length).toFixed(3),
      hitAt3: +(hit3 / queries.length).toFixed(3),
      misses,
    }),
  );
} else if (mode === 'wink') {
  // The documents and field weights the plugin indexes, fed to wink-bm25-text-search instead.
  const { default: winkBM25 } = await import('wink-bm25-text-search');
  const { parseClassXml } = await import(`${dist}/parse/xml.js`);
  const { entriesOf } = await import(`${dist}/index/entries.js`);
  const { terms } = await import(`${dist}/index/tokenize.js`);
  const { FIELD_WEIGHTS } = await import(`${dist}/index/engine.js`);
  const corpus = discover(docDir);
  const docs = [];
  for (const f of corpus.files) {
    try {
      for (const d of entriesOf(parseClassXml(readFileSync(path.join(corpus.root, f.rel), 'utf8'), f.rel), f.rel).docs) docs.push(d.fields);
    } catch {}
  }
  const tokenized = docs.map((d) => ({ name: terms(d.name), owner: terms(d.owner), brief: terms(d.brief), body: terms(d.body) }));
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const engine = winkBM25();
  engine.defineConfig({ fldWeights: { ...FIELD_WEIGHTS } });
  engine.definePrepTasks([(x) => x]);
  tokenized.forEach((d, i) => engine.addDoc(d, i));
  const addMs = performance.now() - t0;
  const t1 = performance.now();
  engine.consolidate(4);
  const consolidateMs = performance.now() - t1;
  global.gc?.();
  const heapMB = mb(process.memoryUsage().heapUsed - heap0);
  const json = engine.exportJSON();
  const t2 = performance.now();
  winkBM25().importJSON(json);
  const importMs = performance.now() - t2;
  console.log(
    JSON.stringify({
      mode,
      symbols: docs.length,
      addDocMs: Math.round(addMs),
      consolidateMs: Math.round(consolidateMs),
      heapMB,
      exportMB: mb(json.length),
      importMs: Math.round(importMs),
    }),
  );
} else {
  console.error('usage: node bench/godot-measure.js cold|warm|relevance|wink <docDir> [indexPath]');
  process.exit(1);
}
