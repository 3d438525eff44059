// One measurement of the godot index in a fresh process (so JIT and caches start cold), for
// bench/godot.bench.js. Prints one JSON line.
//   node bench/godot-measure.js cold <docDir> <indexPath> [workers]   parse + index (and save) from scratch
//   node bench/godot-measure.js warm <docDir> <indexPath>   load the saved index, then time the dev and own questions in-process
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
const { buildIndex } = await import(`${dist}/search-index/build.js`);
const { saveIndex, loadIndex } = await import(`${dist}/search-index/persist.js`);
const { DocIndex } = await import(`${dist}/search-index/doc-index.js`);
const { search } = await import(`${dist}/lookup/search.js`);
const { manualFromFile } = await import(`${dist}/manual/source.js`);

const { questionSets } = await import('./godot-eval.js');
const sets = questionSets();
/** The dev questions and the plugin's own 51 (timed separately). */
const DEV = sets.dev.map((q) => q.query);
const OWN = sets.own.map((q) => q.query);
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
  const manual = manualFromFile();
  const built = await buildIndex(corpus, { workers, manual });
  const buildMs = performance.now() - t0;
  const cpu = cpuMs() - c0;
  const index = new DocIndex(built, corpus.root);
  const t1 = performance.now();
  saveIndex(indexPath, corpus, built, manual.stamp);
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
  const saved = loadIndex(indexPath, corpus, manualFromFile().stamp);
  if (!('index' in saved)) throw new Error(`no usable saved index: ${saved.stale}`);
  const index = new DocIndex(saved.index, corpus.root);
  const loadMs = performance.now() - t0;
  global.gc?.();
  const loadedRssMB = mb(process.memoryUsage().rss);
  const indexHeapMB = mb(process.memoryUsage().heapUsed - heapBefore);
  const single = timeQueries(index, DEV, 5);
  const multi = timeQueries(index, OWN, 5);
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
} else if (mode === 'wink') {
  // The documents and field weights the plugin indexes, fed to wink-bm25-text-search instead.
  const { default: winkBM25 } = await import('wink-bm25-text-search');
  const { parseClassXml } = await import(`${dist}/parse/xml.js`);
  const { entriesOf } = await import(`${dist}/search-index/entries.js`);
  const { terms } = await import(`${dist}/search-index/tokenize.js`);
  const { BM25F } = { BM25F: (await import(`${dist}/lookup/params.js`)).RANKING.bm25f };
  const FIELD_WEIGHTS = { name: BM25F.weights[0], owner: BM25F.weights[1], brief: BM25F.weights[2], body: BM25F.weights[3] };
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
  console.error('usage: node bench/godot-measure.js cold|warm|wink <docDir> [indexPath]');
  process.exit(1);
}
