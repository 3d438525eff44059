// The on-disk index (plugins.godot.indexPath): one JSON file holding the inputs it was built from
// (every class file with size and mtime), the class and symbol tables and the ranking engine. A
// warm start uses it only when the inputs still match; anything else means a rebuild.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { endianness } from 'node:os';
import path from 'node:path';
import type { Corpus, CorpusFile } from '../corpus/discover.js';
import type { DocKind } from '../model.js';
import type { BuiltIndex } from './build.js';
import { Engine, FIELD_WEIGHTS, type EngineData } from './engine.js';
import type { ClassEntry, DocEntry } from './entries.js';

const FORMAT = 'mcphost-godot-index';
/** Bump when the parser, tokenizer or ranking changes what the index holds. */
export const INDEX_VERSION = 1;
const FINGERPRINT = JSON.stringify({ v: INDEX_VERSION, w: FIELD_WEIGHTS, e: endianness() });

const KIND_CODES: Record<DocKind, string> = { class: 'c', method: 'm', property: 'p', signal: 's', constant: 'k', theme_item: 't', annotation: 'a' };
const CODE_KINDS = Object.fromEntries(Object.entries(KIND_CODES).map(([k, v]) => [v, k])) as Record<string, DocKind>;

interface Persisted {
  format: string;
  fingerprint: string;
  root: string;
  files: Array<[string, number, number]>;
  classes: Array<[string, string, string, string]>;
  docs: Array<[string, number, string, string, number, string?]>;
  warnings: string[];
  engine: EngineData;
}

function sameInputs(saved: Persisted, corpus: Corpus): boolean {
  if (saved.root !== corpus.root || saved.files.length !== corpus.files.length) return false;
  return corpus.files.every((f: CorpusFile, i) => {
    const s = saved.files[i];
    return s[0] === f.rel && s[1] === f.size && s[2] === f.mtimeMs;
  });
}

export function saveIndex(file: string, corpus: Corpus, index: BuiltIndex): void {
  const data: Persisted = {
    format: FORMAT,
    fingerprint: FINGERPRINT,
    root: corpus.root,
    files: corpus.files.map((f) => [f.rel, f.size, f.mtimeMs]),
    classes: index.classes.map((c) => [c.name, c.inherits ?? '', c.file, c.brief]),
    docs: index.docs.map((d) => {
      const row: [string, number, string, string, number, string?] = [KIND_CODES[d.kind], d.cls, d.name, d.text, d.refs ?? 0];
      if (d.enum) row.push(d.enum);
      return row;
    }),
    warnings: index.warnings,
    engine: index.engine.toData(),
  };
  mkdirSync(path.dirname(file), { recursive: true });
  // Write beside and rename, so a reader never sees half a file.
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(data));
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

export type LoadResult = { index: BuiltIndex } | { stale: string };

/** Reads a saved index when it was built from exactly these inputs by this version. */
export function loadIndex(file: string, corpus: Corpus): LoadResult {
  let data: Persisted;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as Persisted;
  } catch (error) {
    return { stale: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no saved index' : `unreadable saved index (${(error as Error).message})` };
  }
  if (data?.format !== FORMAT || data.fingerprint !== FINGERPRINT) return { stale: 'saved index is from another version' };
  if (!sameInputs(data, corpus)) return { stale: 'class files changed since the index was saved' };
  const classes: ClassEntry[] = data.classes.map(([name, inherits, f, brief]) => (inherits ? { name, inherits, file: f, brief } : { name, file: f, brief }));
  const docs: DocEntry[] = data.docs.map(([code, cls, name, text, refs, enumName]) => {
    const doc: DocEntry = { kind: CODE_KINDS[code], cls, name, text };
    if (refs) doc.refs = refs;
    if (enumName) doc.enum = enumName;
    return doc;
  });
  return { index: { classes, docs, warnings: data.warnings, engine: Engine.fromData(data.engine) } };
}
