#!/usr/bin/env node
// Derives the godot plugin's manual anchors (plugins/godot/data/manual-anchors.tsv) from a checkout
// of the Godot manual (godotengine/godot-docs, CC BY 3.0; or a folder of its .rst pages): for every
// API symbol a page refers to (`:ref:` roles, inline literals, GDScript samples), the sentence, the
// section title and the page title around the reference, resolved against a Godot class reference.
// It also reports, per page, the names the reference does not know (a Godot 3 page shows `Spatial`,
// `KinematicBody2D` there), so a page from another engine version is seen before it is used.
//   npm run build && node scripts/godot-manual-anchors.js <godot-docs checkout> [--doc <class XML dir>] [--commit <sha>] [--out <file>] [--check]
// --doc defaults to ../shared/data/godot-docs/doc (the 4.5 reference); --check writes nothing.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const dist = path.join(repo, 'dist/plugins/godot');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const root = args[0] && !args[0].startsWith('--') ? path.resolve(args[0]) : undefined;
if (!root) {
  console.error(
    'usage: node scripts/godot-manual-anchors.js <godot-docs checkout> [--doc <dir>] [--commit <sha>] [--out <file>] [--check]',
  );
  process.exit(1);
}
const docDir = path.resolve(option('--doc', path.join(repo, '../shared/data/godot-docs/doc')));
const out = path.resolve(option('--out', path.join(repo, 'plugins/godot/data/manual-anchors.tsv')));
const commit = option('--commit', 'unknown');

const [{ discover }, { buildIndex }, { SymbolTable, manualTexts, resolveTarget }, { parseRstPage }, source] = await Promise.all([
  import(`${dist}/corpus/discover.js`),
  import(`${dist}/search-index/build.js`),
  import(`${dist}/manual/resolve.js`),
  import(`${dist}/manual/rst.js`),
  import(`${dist}/manual/source.js`),
]);

const corpus = discover(docDir);
const built = await buildIndex(corpus, { workers: 0 });
const table = new SymbolTable(built.classes, built.docs);
const files = source.manualFiles(root);
const pages = files.map((f) => ({ rel: path.relative(root, f), page: parseRstPage(readFileSync(f, 'utf8')) }));

// Per page: anchors resolved, and the class names it uses that the reference lacks (Godot 3 pages show here).
console.log(`page\tanchors\tresolved\tunknown classes`);
for (const { rel, page } of pages) {
  const classes = [...page.classes].map((c) => table.classId(c)).filter((c) => c !== undefined);
  const resolved = page.anchors.filter((a) => resolveTarget(table, a.target, classes) !== undefined).length;
  const unknown = [...page.classes].filter((c) => table.classId(c) === undefined && /^[A-Z][a-z]/.test(c));
  console.log(`${rel}\t${page.anchors.length}\t${resolved}\t${unknown.join(' ')}`);
}
const result = manualTexts(
  table,
  pages.map((p) => p.page),
);
const entries = [...result.texts]
  .sort((a, b) => a[0] - b[0])
  .map(([id, text]) => {
    const d = built.docs[id];
    const cls = built.classes[d.cls].name;
    return { kind: d.kind, qname: d.kind === 'class' ? d.name : `${cls}.${d.name}`, text };
  });
console.log(
  `${files.length} pages, ${result.resolved} anchors resolved, ${result.dropped} dropped (names the reference does not have), ${entries.length} symbols`,
);
if (args.includes('--check')) process.exit(0);
const header = [
  'Manual anchors of the godot plugin: for each API symbol the Godot manual refers to, the sentences, section titles and page titles around the reference.',
  'Derived from the Godot documentation (https://github.com/godotengine/godot-docs), by Juan Linietsky, Ariel Manzur and the Godot community,',
  'licensed under CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/). Changes: excerpts of sentences and titles, regrouped by symbol.',
  `Source: godotengine/godot-docs at ${commit}; ${files.length} pages (their paths and commits: SOURCE.md beside this file).`,
  `Resolved against the class reference in ${path.relative(repo, docDir) || docDir} (${built.classes.length} classes).`,
  'Written by scripts/godot-manual-anchors.js; one symbol a line: kind <TAB> Class or Class.member <TAB> text.',
];
const temp = `${out}.${process.pid}.tmp`;
writeFileSync(temp, source.formatManualAnchors(header, entries));
renameSync(temp, out);
console.log(`wrote ${path.relative(process.cwd(), out)} (${entries.length} symbols)`);
