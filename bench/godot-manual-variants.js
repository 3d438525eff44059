#!/usr/bin/env node
// Which words of the manual the `manual` field should hold, measured on held-out halves only. The
// same pages (a godot-docs checkout or a folder of its .rst pages) are read three ways:
//   - shipped: the sentence around each reference, its section title and the page title;
//   - sentences: the sentences (and sample comments) only;
//   - titles: the section and page titles only;
//   - specific: a sentence only for the symbols it is about (it names at most three), the titles for all.
// For each way and each direction (tune odd → report even, tune even → report odd) the field's weight
// and b are refitted on the tuning half (same objective and constraints as godot-fit.js, the other
// numbers as that half's fit left them), then the held-out half is reported. Nothing here looks at
// the held-out questions before reporting them.
//   npm run build && node bench/godot-fit.js > fit.txt
//   node bench/godot-manual-variants.js <godot-docs folder> fit.txt
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { evaluate, fmt, godot4, loadPlugin, questionSets, repo } from './godot-eval.js';
import { clone, seedChecksHold } from './godot-fit.js';

const MANUAL = 6;
const [root, fitOutput] = process.argv.slice(2);
if (!root || !fitOutput) {
  console.error('usage: node bench/godot-manual-variants.js <godot-docs folder> <output of bench/godot-fit.js>');
  process.exit(1);
}
const dist = path.join(repo, 'dist/plugins/godot');
const [{ manualTexts, resolveTarget, MANUAL_CHARS }, { parseRstPage }, { manualFiles }] = await Promise.all([
  import(`${dist}/manual/resolve.js`),
  import(`${dist}/manual/rst.js`),
  import(`${dist}/manual/source.js`),
]);

/** The fitted params of each half, as godot-fit.js prints them (the JSON line under "tuned on <half>"). */
function fitsFrom(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out = {};
  lines.forEach((line, i) => {
    const m = /^tuned on (odd|even):/.exec(line);
    if (m) out[m[1]] = JSON.parse(lines[i + 1].trim());
  });
  if (!out.odd || !out.even) throw new Error(`${file}: no "tuned on odd" and "tuned on even" lines with their params`);
  return out;
}

/** Like manualTexts, keeping only the pieces `keep` selects (at most MANUAL_CHARS a symbol, each piece once). */
function selectedTexts(table, pages, keep) {
  const parts = new Map();
  for (const page of pages) {
    const pageClasses = [...page.classes].map((c) => table.classId(c)).filter((c) => c !== undefined);
    for (const anchor of page.anchors) {
      const id = resolveTarget(table, anchor.target, pageClasses);
      if (id === undefined) continue;
      const set = parts.get(id) ?? parts.set(id, new Set()).get(id);
      for (const piece of keep(anchor, page)) {
        const size = [...set].reduce((n, t) => n + t.length + 2, 0);
        if (piece && !set.has(piece) && size + piece.length <= MANUAL_CHARS) set.add(piece);
      }
    }
  }
  const texts = new Map();
  for (const [id, set] of parts) if (set.size) texts.set(id, [...set].map((t) => (/[.!?:]$/.test(t) ? t : `${t}.`)).join(' '));
  return { texts, resolved: texts.size, dropped: 0 };
}

/** Per page, per sentence: how many symbols of the reference it names (a list of ten calls is about none of them in particular). */
function symbolsPerSentence(table, pages) {
  const out = new Map();
  for (const page of pages) {
    const pageClasses = [...page.classes].map((c) => table.classId(c)).filter((c) => c !== undefined);
    const ids = new Map();
    for (const anchor of page.anchors) {
      const id = resolveTarget(table, anchor.target, pageClasses);
      if (id !== undefined) (ids.get(anchor.text) ?? ids.set(anchor.text, new Set()).get(anchor.text)).add(id);
    }
    out.set(page, new Map([...ids].map(([text, set]) => [text, set.size])));
  }
  return out;
}

const pages = manualFiles(path.resolve(root)).map((f) => parseRstPage(readFileSync(f, 'utf8')));
const WAYS = [
  ['shipped (sentence, section title, page title)', (table) => manualTexts(table, pages)],
  ['sentences only', (table) => selectedTexts(table, pages, (a) => [a.text])],
  ['titles only (section, page)', (table) => selectedTexts(table, pages, (a, p) => [a.section, p.title])],
  [
    'a sentence only for the symbols it is about (it names at most 3), titles for all',
    (table) => {
      const named = symbolsPerSentence(table, pages);
      return selectedTexts(table, pages, (a, p) => [named.get(p)?.get(a.text) <= 3 ? a.text : '', a.section, p.title]);
    },
  ],
];

const plugin = await loadPlugin();
const sets = questionSets();
const fits = fitsFrom(fitOutput);
const corpus = plugin.discover(godot4);
const WEIGHTS = [0, 0.25, 0.5, 1, 2, 4];
const BS = [0, 0.3, 0.5, 0.75, 1];

console.log(`${pages.length} pages from ${root}`);
console.log(
  '| manual field holds | symbols | tuned odd → held-out even | tuned even → held-out odd | manual weight / b (odd fit; even fit) |',
);
console.log('|---|---|---|---|---|');
for (const [label, texts] of WAYS) {
  const manual = { stamp: `bench:${label}`, texts };
  const index = new plugin.DocIndex(await plugin.buildIndex(corpus, { workers: 0, manual }), corpus.root);
  const symbols = index.docs.filter((d, id) => index.engine.fieldLength(id, MANUAL) > 0).length;
  const cells = [];
  const chosen = [];
  for (const [tune, held] of [
    ['odd', 'even'],
    ['even', 'odd'],
  ]) {
    const objective = (p) => {
      if (!seedChecksHold(plugin, index, p)) return -Infinity;
      const r = evaluate(plugin, index, sets[tune], p);
      const own = evaluate(plugin, index, sets.own, p);
      return r.hit3 + r.mrr + 0.25 * (own.hit3 + own.mrr);
    };
    let best = clone(fits[tune]);
    let bestScore = objective(best);
    for (const w of WEIGHTS)
      for (const b of BS) {
        const p = clone(fits[tune]);
        p.bm25f.weights[MANUAL] = w;
        p.bm25f.b[MANUAL] = b;
        const score = objective(p);
        if (score > bestScore + 0.02) [best, bestScore] = [p, score];
      }
    cells.push(`${held} ${fmt(evaluate(plugin, index, sets[held], best))}`);
    chosen.push(`${best.bm25f.weights[MANUAL]} / ${best.bm25f.b[MANUAL]}`);
  }
  console.log(`| ${label} | ${symbols} | ${cells[0]} | ${cells[1]} | ${chosen.join('; ')} |`);
}
