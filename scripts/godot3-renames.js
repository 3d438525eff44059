#!/usr/bin/env node
// Derives the godot plugin's Godot 3 → 4 table (plugins/godot/data/godot3.tsv) from two class
// references and the rename tables of Godot's own project converter (godotengine/godot,
// editor/renames_map_3_to_4.cpp, MIT): every Godot 3 class with its successor and its Godot 3
// parent, and every Godot 3 member that Godot 4 renamed, moved, removed or changed (its signature
// then differs), each with its Godot 3 signature. A rename is kept only when both references agree
// with it: the old name is declared by the Godot 3 class and not found on its successor's chain,
// and the new one is found there, of the same kind. What the converter does not cover comes from
// the references alone: a member whose name is unchanged but whose signature differs, and members
// with no successor at all ("removed").
// `--moves FILE` (repeatable) adds `Class.member<TAB>Class.member` lines for what the tables leave
// out (members that moved to another class, such as OS.get_screen_size → DisplayServer.screen_get_size,
// from Godot's upgrading guide); they win over the tables, and are checked against both references too.
//   npm run build && node scripts/godot3-renames.js <renames_map_3_to_4.cpp> [--moves <file>]… [--godot3 <dir>] [--godot4 <dir>] [--commit <sha>] [--out <file>]
// --godot3 / --godot4 default to ../shared/data/godot3-docs/doc and ../shared/data/godot-docs/doc.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(repo, 'dist/plugins/godot');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const mapFile = args[0] && !args[0].startsWith('--') ? path.resolve(args[0]) : undefined;
if (!mapFile) {
  console.error(
    'usage: node scripts/godot3-renames.js <renames_map_3_to_4.cpp> [--godot3 <dir>] [--godot4 <dir>] [--commit <sha>] [--out <file>]',
  );
  process.exit(1);
}
const shared = process.env.MCPHOST_SHARED_DATA ?? path.join(repo, '../shared/data');
const dir3 = path.resolve(option('--godot3', path.join(shared, 'godot3-docs/doc')));
const dir4 = path.resolve(option('--godot4', path.join(shared, 'godot-docs/doc')));
const out = path.resolve(option('--out', path.join(repo, 'plugins/godot/data/godot3.tsv')));
const commit = option('--commit', 'unknown');

const [{ discover }, { parseClassXml }, sig, { CLASS_RENAMES, MEMBER_RENAMES }] = await Promise.all([
  import(`${dist}/corpus/discover.js`),
  import(`${dist}/parse/xml.js`),
  import(`${dist}/signature.js`),
  import(`${dist}/lookup/renames.js`),
]);

function reference(dir) {
  const corpus = discover(dir);
  const classes = new Map();
  for (const f of corpus.files) {
    const raw = parseClassXml(readFileSync(path.join(corpus.root, f.rel), 'utf8'), f.rel);
    classes.set(raw.name, raw);
  }
  return classes;
}
const g3 = reference(dir3);
const g4 = reference(dir4);

/** `{ "old", "new" }, // Class, Class` rows of each table (commented-out rows too: they name their class). */
function tables(text) {
  const out = {};
  let current;
  for (const line of text.split('\n')) {
    const head = /RenamesMap3To4::(\w+)\[\]\[2\]/.exec(line);
    if (head) current = out[head[1]] = [];
    const row = /\{\s*"([^"]+)",\s*"([^"]+)"\s*\}\s*,?\s*(?:\/\/\s*(.*))?$/.exec(line);
    if (current && row)
      current.push({ old: row[1], new: row[2], classes: (row[3] ?? '').split(/[,\s]+/).filter((c) => /^[A-Z@]/.test(c)) });
  }
  return out;
}
const map = tables(readFileSync(mapFile, 'utf8'));
const moves = new Map(Object.entries(MEMBER_RENAMES));
args.forEach((a, i) => {
  if (a !== '--moves') return;
  for (const line of readFileSync(path.resolve(args[i + 1]), 'utf8').split('\n')) {
    const [from, to] = line.trim().split('\t');
    if (from && to && !from.startsWith('#')) moves.set(from, to);
  }
});
const classRenames = new Map(Object.entries(CLASS_RENAMES));
for (const r of [...(map.class_renames ?? [])]) if (g3.has(r.old) && g4.has(r.new) && !g4.has(r.old)) classRenames.set(r.old, r.new);
const successor = (name) => (g4.has(name) ? name : classRenames.get(name));

const KINDS = { method: 'methods', property: 'properties', signal: 'signals', constant: 'constants' };
const own = (raw, kind, name) => raw?.[KINDS[kind]].find((m) => m.name === name && !m.overrides);
const GLOBALS = ['@GlobalScope', '@GDScript'];
/** Where a member is found along a Godot 4 class's chain: [declaring class, member]. Godot 3's @GDScript functions are @GlobalScope's in Godot 4. */
function find4(cls, kind, name) {
  for (const start of GLOBALS.includes(cls) ? GLOBALS : [cls]) {
    for (let c = g4.get(start); c; c = c.inherits ? g4.get(c.inherits) : undefined) {
      const m = own(c, kind, name);
      if (m) return [c.name, m];
    }
  }
  return undefined;
}
const signature = (kind, m) =>
  kind === 'method'
    ? sig.methodSignature(m)
    : kind === 'property'
      ? sig.propertySignature(m)
      : kind === 'signal'
        ? sig.signalSignature(m)
        : sig.constantSignature(m);

// Member renames, per kind: old name → [{ new, classes }].
const renames = { method: new Map(), property: new Map(), signal: new Map(), constant: new Map() };
const add = (kind, rows) => {
  for (const r of rows ?? []) renames[kind].set(r.old, [...(renames[kind].get(r.old) ?? []), r]);
};
add('method', map.gdscript_function_renames);
add('property', map.gdscript_properties_renames);
add('signal', map.gdscript_signals_renames);
add('constant', map.enum_renames);

// A signature counts as changed when a call written for Godot 3 may no longer fit: Godot 4 needs
// more arguments, or takes fewer (move_and_slide took up to six, it takes none). An optional
// argument added, and the types Godot 4 narrowed (Object → WebRTCDataChannel, String → StringName),
// leave such a call working, so they are not counted.
function sameShape(kind, m3, m4) {
  if (kind !== 'method' && kind !== 'signal') return true;
  const a3 = sig.arity(m3);
  const a4 = sig.arity(m4);
  return a4.min <= a3.min && a4.max >= a3.max;
}
const colourName = (name) => name.replace(/_/g, '').toLowerCase();

const rows = [];
const stats = { classes: 0, renamed: 0, moved: 0, changed: 0, removed: 0 };
for (const [name, raw] of [...g3].sort(([a], [b]) => a.localeCompare(b))) {
  const succ = successor(name);
  stats.classes++;
  rows.push(['class', name, succ ?? '', succ === undefined ? 'removed' : succ === name ? 'same' : 'renamed', raw.inherits ?? '']);
  if (succ === undefined) continue;
  for (const kind of Object.keys(KINDS)) {
    for (const m3 of raw[KINDS[kind]]) {
      // Godot 3 lists a built-in type's constructors as methods named like the type (Vector2.Vector2).
      if (m3.overrides || (kind === 'method' && m3.name === name)) continue;
      const old = `${name}.${m3.name}`;
      const at = find4(succ, kind, m3.name);
      if (at) {
        if (!sameShape(kind, m3, at[1])) {
          rows.push([kind, old, `${at[0]}.${m3.name}`, 'changed', signature(kind, m3)]);
          stats.changed++;
        }
        continue;
      }
      let target;
      let how = 'renamed';
      const moved = moves.get(old) ?? moves.get(`${succ}.${m3.name}`);
      if (moved) {
        const dot = moved.lastIndexOf('.');
        const [c, m] = [moved.slice(0, dot), moved.slice(dot + 1)];
        // A move may change the kind (Engine.editor_hint, a property, is Engine.is_editor_hint(), a method).
        const found = [kind, ...Object.keys(KINDS)].map((k) => find4(c, k, m)).find(Boolean);
        if (found) [target, how] = [`${found[0]}.${m}`, found[0] === succ || g4.get(succ) === undefined ? 'renamed' : 'moved'];
        else if (c === m && g4.has(c)) [target, how] = [c, 'moved'];
        else console.warn(`not found in Godot 4: ${moved} (for ${old})`);
      }
      // The converter's tables are by where a name appears in code, not by kind (Vector2.tangent, a
      // method, is in its property table): the member's own kind's table first, then the others.
      const candidates = [kind, ...Object.keys(KINDS).filter((k) => k !== kind)].flatMap((k) => renames[k].get(m3.name) ?? []);
      for (const r of target ? [] : candidates) {
        const found = find4(succ, kind, r.new);
        if (found) {
          target = `${found[0]}.${r.new}`;
          break;
        }
      }
      // A singleton of Godot 3's @GlobalScope (VisualServer) is its renamed class's (RenderingServer).
      if (!target && kind === 'property' && name === '@GlobalScope' && successor(m3.name)) {
        const found = find4(name, kind, successor(m3.name));
        if (found) target = `${found[0]}.${found[1].name}`;
      }
      if (!target && kind === 'constant' && name === 'Color') {
        const found = g4.get('Color')?.constants.find((c) => colourName(c.name) === m3.name.toLowerCase());
        if (found) target = `Color.${found.name}`;
      }
      if (!target) how = 'removed';
      stats[how]++;
      rows.push([kind, old, target ?? '', how, signature(kind, m3)]);
    }
  }
}

const header = [
  '# Godot 3 → 4: every Godot 3.2 class (its successor and its Godot 3 parent) and every Godot 3 member that Godot 4.5 renamed,',
  '# moved, removed or changed, with its Godot 3 signature. Derived by scripts/godot3-renames.js from the Godot 3.2.3 and 4.5',
  `# class references and the rename tables of Godot's project converter (godotengine/godot editor/renames_map_3_to_4.cpp at ${commit},`,
  '# MIT: Copyright (c) 2014-present Godot Engine contributors, (c) 2007-2014 Juan Linietsky, Ariel Manzur); see SOURCE.md.',
  '# kind\tgodot3\tgodot4\thow\tclass rows: Godot 3 parent; member rows: Godot 3 signature',
];
const tmp = `${out}.tmp`;
writeFileSync(tmp, `${header.join('\n')}\n${rows.map((r) => r.join('\t')).join('\n')}\n`);
renameSync(tmp, out);
console.log(`${rows.length} rows written to ${path.relative(repo, out)}:`, stats);
