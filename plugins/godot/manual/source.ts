// Where the manual's words come from: the file shipped with the plugin (data/manual-anchors.tsv,
// derived from a godot-docs checkout by scripts/godot-manual-anchors.js), or the user's own checkout
// (`manualDir`), read when the index is built. Either way a stamp says which, so a saved index built
// from one is not reused with the other.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UnavailableError } from '../../../src/backend/index.js';
import { dataFile } from '../data-files.js';
import type { DocKind } from '../model.js';
import { manualTexts, SymbolTable, type ManualTexts } from './resolve.js';
import { parseRstPage, type ManualPage } from './rst.js';

export const SHIPPED_MANUAL = 'manual-anchors.tsv';

export interface ManualSource {
  /** Identifies the source and its version (part of the saved index's inputs). */
  stamp: string;
  /** Each symbol's text, resolved against the reference being indexed. */
  texts(table: SymbolTable): ManualTexts;
}

/** The .rst pages of a godot-docs checkout, without the class reference (classes/ is generated from the XML the index already reads). */
function manualFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 8) return;
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith('.') || e.name.startsWith('_') || (dir === root && e.name === 'classes')) continue;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full, depth + 1);
      else if (e.isFile() && e.name.endsWith('.rst')) out.push(full);
    }
  };
  walk(root, 0);
  return out;
}

const MANUAL_DIR_FIX =
  'Set plugins.godot.manualDir (or GODOT_MANUAL_DIR) to a godot-docs checkout, or remove it to use the manual shipped with the plugin.';

/** A godot-docs checkout (or any folder of its .rst pages). Throws UnavailableError naming the folder and the fix when it holds none. */
export function manualFromDir(root: string): ManualSource {
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new UnavailableError(`Godot manual folder ${root} is not a folder. ${MANUAL_DIR_FIX}`, { data: { manualDir: root } });
  const files = manualFiles(root);
  if (files.length === 0)
    throw new UnavailableError(`Godot manual folder ${root} holds no .rst pages. ${MANUAL_DIR_FIX}`, { data: { manualDir: root } });
  const hash = createHash('sha256');
  for (const f of files) {
    const s = statSync(f);
    hash.update(`${path.relative(root, f)}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return {
    stamp: `dir:${root}:${hash.digest('hex').slice(0, 16)}`,
    texts: (table) => manualTexts(table, readPages(files)),
  };
}

function* readPages(files: string[]): Iterable<ManualPage> {
  for (const f of files) yield parseRstPage(readFileSync(f, 'utf8'));
}

export interface ManualEntry {
  kind: DocKind;
  /** `Class` or `Class.member`. */
  qname: string;
  text: string;
}

/** Parses a manual-anchors file: `#` header lines, then kind, qualified name and text separated by tabs. */
export function parseManualAnchors(text: string, file = SHIPPED_MANUAL): ManualEntry[] {
  const out: ManualEntry[] = [];
  text.split('\n').forEach((line, i) => {
    if (line === '' || line.startsWith('#')) return;
    const [kind, qname, words] = line.split('\t');
    if (!kind || !qname || words === undefined) throw new Error(`${file}:${i + 1}: expected kind, name and text separated by tabs`);
    out.push({ kind: kind as DocKind, qname, text: words });
  });
  return out;
}

/** Entries (from the shipped file) matched to the reference by kind and name; names it lacks are dropped. */
function entriesToTexts(table: SymbolTable, entries: ManualEntry[]): ManualTexts {
  const texts = new Map<number, string>();
  let dropped = 0;
  for (const e of entries) {
    const dot = e.qname.indexOf('.');
    const cls = table.classId(dot < 0 ? e.qname : e.qname.slice(0, dot));
    const id = cls === undefined ? undefined : dot < 0 ? table.classDocOf(cls) : table.member(cls, e.qname.slice(dot + 1), e.kind);
    if (id === undefined) dropped++;
    else texts.set(id, texts.has(id) ? `${texts.get(id)}. ${e.text}` : e.text);
  }
  return { texts, resolved: texts.size, dropped };
}

/** The manual file shipped with the plugin (or another file in its format). */
export function manualFromFile(file = dataFile(SHIPPED_MANUAL)): ManualSource {
  const text = readFileSync(file, 'utf8');
  return {
    stamp: `file:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`,
    texts: (table) => entriesToTexts(table, parseManualAnchors(text, file)),
  };
}
