// Relevance evaluation of the godot plugin's search (used by godot.bench.js, godot-fit.js and
// godot-ablation.js; run `npm run build` first). The question sets:
//   - ../shared/data/godot-queries-dev.jsonl: 120 questions written independently of this plugin
//     (format in godot-queries-dev.md beside it), split by line number into an odd and an even half;
//   - test/fixtures/godot/relevance-queries.json: the plugin's own 51 questions (a regression set).
// A hit is a result whose name equals one of the expected names, case-insensitive; hit@k and MRR
// are taken over the first 10 results.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '..');
export const shared = process.env.MCPHOST_SHARED_DATA ?? path.resolve(repo, '../shared/data');
export const godot4 = path.join(shared, 'godot-docs/doc');
const dist = path.join(repo, 'dist/plugins/godot');

export async function loadPlugin() {
  if (!existsSync(path.join(dist, 'index.js'))) throw new Error('run `npm run build` first');
  const [{ discover }, { buildIndex }, { DocIndex }, { search }, params, manual, vocabulary] = await Promise.all([
    import(`${dist}/corpus/discover.js`),
    import(`${dist}/search-index/build.js`),
    import(`${dist}/search-index/doc-index.js`),
    import(`${dist}/lookup/search.js`),
    import(`${dist}/lookup/params.js`),
    import(`${dist}/manual/source.js`),
    import(`${dist}/lookup/vocabulary.js`),
  ]);
  return { discover, buildIndex, DocIndex, search, RANKING: params.RANKING, manual, vocabulary };
}

/**
 * The Godot 4 reference of ../shared/data, indexed in this process with the shipped manual anchors
 * (GODOT_MANUAL_DIR: a godot-docs checkout instead).
 */
export async function sharedIndex(plugin) {
  const corpus = plugin.discover(godot4);
  const manual = process.env.GODOT_MANUAL_DIR ? plugin.manual.manualFromDir(process.env.GODOT_MANUAL_DIR) : plugin.manual.manualFromFile();
  return new plugin.DocIndex(await plugin.buildIndex(corpus, { workers: 0, manual }), corpus.root);
}

export function questionSets() {
  const devFile = path.join(shared, 'godot-queries-dev.jsonl');
  const dev = readFileSync(devFile, 'utf8')
    .split('\n')
    .map((line, i) => ({ line: i + 1, text: line.trim() }))
    .filter((l) => l.text)
    .map(({ line, text }) => {
      const q = JSON.parse(text);
      return { line, query: q.q, expected: q.expect };
    });
  const own = JSON.parse(readFileSync(path.join(repo, 'test/fixtures/godot/relevance-queries.json'), 'utf8')).queries.map((q) => ({
    query: q.query,
    expected: q.expected,
  }));
  return {
    dev,
    odd: dev.filter((q) => q.line % 2 === 1),
    even: dev.filter((q) => q.line % 2 === 0),
    own,
  };
}

/** hit@1, hit@3, hit@10 and MRR of `params` (and a bench variant) on `questions`; `misses` lists questions without a hit in the top 3. */
export function evaluate(plugin, index, questions, params, variant) {
  return evaluateWith((query, limit) => plugin.search(index, query, { limit, params, variant }), questions);
}

/** The same figures for any search function `(query, limit) => [{ name }]` (the plain BM25 baseline, godot-plain-bm25.js). */
export function evaluateWith(searchFn, questions) {
  let h1 = 0;
  let h3 = 0;
  let h10 = 0;
  let rr = 0;
  const misses = [];
  for (const q of questions) {
    const results = searchFn(q.query, 10);
    const expected = new Set(q.expected.map((e) => e.toLowerCase()));
    const rank = results.findIndex((r) => expected.has(r.name.toLowerCase())) + 1;
    if (rank > 0) {
      rr += 1 / rank;
      h10++;
      if (rank <= 3) h3++;
      if (rank === 1) h1++;
    }
    if (rank === 0 || rank > 3)
      misses.push(
        `${q.query} (${rank || '>10'}: ${results
          .slice(0, 3)
          .map((r) => r.name)
          .join(', ')})`,
      );
  }
  const n = questions.length || 1;
  const r3 = (x) => Math.round((x / n) * 1000) / 1000;
  return { n: questions.length, hit1: r3(h1), hit3: r3(h3), hit10: r3(h10), mrr: r3(rr), misses };
}

export const fmt = (r) => `${r.hit3.toFixed(2)} / ${r.mrr.toFixed(2)}`;
