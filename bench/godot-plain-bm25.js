// Plain BM25 over the same reference: the baseline the godot search is compared with in the fit and
// the ablation (same run, same questions). wink-bm25-text-search (the established BM25 library on
// npm), one document per class and member of the Godot 4 reference, one field: the qualified name,
// the owning class, the brief and the description (as the plugin reads them from the XML). Words:
// lowercased, split on anything but letters and digits (so `move_and_slide` is three words, while
// `CharacterBody2D` stays one), Porter2-stemmed; no stop list, no expansion, no field weights, no
// priors, wink's defaults k1 1.2, b 0.75. No manual, no anchor text, no vocabulary.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repo } from './godot-eval.js';

const dist = path.join(repo, 'dist/plugins/godot');

/** A search function `(query, limit) => [{ name }]` over `docDir`, ranked by plain BM25. */
export async function plainBM25(docDir) {
  const [{ default: winkBM25 }, { default: stem }, { discover }, { parseClassXml }, { entriesOf }] = await Promise.all([
    import('wink-bm25-text-search'),
    import('wink-porter2-stemmer'),
    import(`${dist}/corpus/discover.js`),
    import(`${dist}/parse/xml.js`),
    import(`${dist}/search-index/entries.js`),
  ]);
  const words = (text) =>
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
      .map((w) => stem(w));
  const corpus = discover(docDir);
  const names = [];
  const engine = winkBM25();
  engine.defineConfig({ fldWeights: { text: 1 } });
  engine.definePrepTasks([words]);
  for (const f of corpus.files) {
    let entries;
    try {
      entries = entriesOf(parseClassXml(readFileSync(path.join(corpus.root, f.rel), 'utf8'), f.rel), f.rel);
    } catch {
      continue; // a file that is not well-formed XML: the plugin skips it too
    }
    for (const d of entries.docs) {
      const name = d.entry.kind === 'class' ? entries.cls.name : `${entries.cls.name}.${d.entry.name}`;
      engine.addDoc({ text: `${name} ${d.fields.owner} ${d.fields.brief} ${d.fields.body}` }, names.length);
      names.push(name);
    }
  }
  engine.consolidate(4);
  return (query, limit) => engine.search(query, limit).map(([id]) => ({ name: names[Number(id)] }));
}
