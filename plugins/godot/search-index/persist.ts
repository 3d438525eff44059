// The on-disk index (plugins.godot.indexPath): a JSON file with the inputs it was built from (every
// class file with size and mtime), the class and symbol tables and the vocabulary, and beside it a
// binary file (`godot-index.bin`) with the ranking arrays and the symbols' summaries, loaded without
// decoding. A warm start uses them only when the inputs still match; anything else means a rebuild.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import { stageFileSync } from '../../../src/kit/index.js';
import type { Corpus } from '../corpus/discover.js';
import type { DocKind } from '../model.js';
import type { BuiltIndex } from './build.js';
import { Engine, type EngineMeta } from './engine.js';
import { FIELD_COUNT } from './partial.js';
import { Summaries } from './summaries.js';
import { FIELD_NAMES, type ClassEntry, type DocEntry, type DocStatus } from './entries.js';

const FORMAT = 'mcphost-godot-index';
/** Bump when the parser, tokenizer or ranking changes what the index holds. */
const INDEX_VERSION = 7;
const FINGERPRINT = JSON.stringify({ v: INDEX_VERSION, f: FIELD_NAMES, e: endianness() });

const KIND_CODES: Record<DocKind, string> = {
  class: 'c',
  method: 'm',
  property: 'p',
  signal: 's',
  constant: 'k',
  theme_item: 't',
  annotation: 'a',
};
const CODE_KINDS = Object.fromEntries(Object.entries(KIND_CODES).map(([k, v]) => [v, k])) as Record<string, DocKind>;

/** kind code (upper case: a virtual method), class, name, references, enum. */
type DocRow = [string, number, string, number, string?];

const HEADER = 32;
const MAGIC = 'GDIDX004';

interface BinaryMeta extends EngineMeta {
  summaryBytes: number;
}

interface Persisted {
  format: string;
  fingerprint: string;
  buildId: string;
  root: string;
  /** Where the manual field came from (manual/source.ts stamp; '' for none). */
  manual: string;
  files: Array<[string, number, number]>;
  classes: Array<[string, string, string, string]>;
  docs: DocRow[];
  /** The few documents the reference marks deprecated or experimental: [doc id, status]. */
  status: Array<[number, DocStatus]>;
  warnings: string[];
  engine: BinaryMeta;
}

/** `godot-index.json` → `godot-index.bin`. */
export function binaryPath(file: string): string {
  return file.endsWith('.json') ? `${file.slice(0, -5)}.bin` : `${file}.bin`;
}

function sameInputs(saved: Persisted, corpus: Corpus): boolean {
  if (saved.root !== corpus.root || saved.files.length !== corpus.files.length) return false;
  return corpus.files.every((f, i) => {
    const s = saved.files[i];
    return s[0] === f.rel && s[1] === f.size && s[2] === f.mtimeMs;
  });
}

/** JSON with every non-ASCII character escaped: read back, it is a one-byte string (half the memory). */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Writes `data` as JSON, its big arrays a slice at a time, so no whole-file string is ever built. */
function writeJson(fd: number, data: Persisted): void {
  const { files, classes, docs, ...head } = data;
  const write = (text: string) => writeSync(fd, text);
  write(asciiJson(head).slice(0, -1));
  for (const [key, rows] of [
    ['files', files],
    ['classes', classes],
    ['docs', docs],
  ] as const) {
    write(`,${JSON.stringify(key)}:[`);
    for (let i = 0; i < rows.length; i += 2000) write(`${i ? ',' : ''}${asciiJson(rows.slice(i, i + 2000)).slice(1, -1)}`);
    write(']');
  }
  write('}');
}

export function saveIndex(file: string, corpus: Corpus, index: BuiltIndex, manual = ''): void {
  const buildId = randomBytes(12).toString('hex');
  const data: Persisted = {
    format: FORMAT,
    fingerprint: FINGERPRINT,
    buildId,
    root: corpus.root,
    manual,
    files: corpus.files.map((f) => [f.rel, f.size, f.mtimeMs]),
    classes: index.classes.map((c) => [c.name, c.inherits ?? '', c.file, c.brief]),
    docs: index.docs.map((d) => {
      const row: DocRow = [d.virtual ? KIND_CODES[d.kind].toUpperCase() : KIND_CODES[d.kind], d.cls, d.name, d.refs ?? 0];
      if (d.enum) row.push(d.enum);
      return row;
    }),
    status: index.docs.flatMap((d, id): Array<[number, DocStatus]> => (d.status ? [[id, d.status]] : [])),
    warnings: index.warnings,
    engine: { ...index.engine.meta(), summaryBytes: index.summaries.bytes.length },
  };
  // Both halves are written beside their targets first, so a reader never sees half an index;
  // the build id ties them together.
  const bin = stageFileSync(binaryPath(file), (fd) => writeBinary(fd, buildId, index));
  try {
    const json = stageFileSync(file, (fd) => writeJson(fd, data));
    try {
      bin.commit();
      json.commit();
    } finally {
      json.discard();
    }
  } finally {
    bin.discard();
  }
}

function header(buildId: string): string {
  return `${MAGIC}${buildId}`.padEnd(HEADER).slice(0, HEADER);
}

/**
 * Header, then the arrays 4-byte ones first so every view is aligned: offsets, postings, summary
 * offsets, lengths, frequencies, summary bytes.
 */
function binaryParts(index: Pick<BuiltIndex, 'engine' | 'summaries'>): ArrayBufferView[] {
  const { offsets, docs, lengths, tfs } = index.engine.arrays();
  return [offsets, docs, index.summaries.offsets, lengths, tfs, index.summaries.bytes];
}

function writeBinary(fd: number, buildId: string, index: BuiltIndex): void {
  writeSync(fd, Buffer.from(header(buildId), 'latin1'));
  for (const part of binaryParts(index)) writeSync(fd, new Uint8Array(part.buffer, part.byteOffset, part.byteLength));
}

function readBinary(meta: BinaryMeta, buildId: string, buf: Buffer): { engine: Engine; summaries: Summaries } | undefined {
  const { vocab, postings, docCount, fields, summaryBytes } = meta;
  const expected =
    HEADER +
    4 * (vocab.length + 1) +
    4 * postings +
    4 * (docCount + 1) +
    2 * docCount * FIELD_COUNT +
    postings * FIELD_COUNT +
    summaryBytes;
  if (fields !== FIELD_COUNT || buf.length !== expected || buf.toString('latin1', 0, HEADER) !== header(buildId)) return undefined;
  // Typed arrays need aligned offsets: copy when the buffer does not start on a 4-byte boundary.
  const bytes = buf.byteOffset % 4 === 0 ? buf : Buffer.from(buf);
  let at = bytes.byteOffset + HEADER;
  const take = <T>(Type: new (b: ArrayBufferLike, o: number, n: number) => T, n: number, size: number): T => {
    const view = new Type(bytes.buffer, at, n);
    at += n * size;
    return view;
  };
  const offsets = take(Uint32Array, vocab.length + 1, 4);
  const docs = take(Uint32Array, postings, 4);
  const summaryOffsets = take(Uint32Array, docCount + 1, 4);
  const lengths = take(Uint16Array, docCount * FIELD_COUNT, 2);
  const tfs = take(Uint8Array, postings * FIELD_COUNT, 1);
  const text = take(Uint8Array, summaryBytes, 1);
  return { engine: new Engine({ vocab, offsets, docs, lengths, tfs }), summaries: new Summaries(text, summaryOffsets) };
}

export type LoadResult = { index: BuiltIndex } | { stale: string };

/** Reads a saved index when it was built from exactly these inputs (class files and manual source) by this version. */
export function loadIndex(file: string, corpus: Corpus, manual = ''): LoadResult {
  let data: Persisted;
  let bin: Buffer;
  try {
    data = JSON.parse(readFileSync(file, 'latin1')) as Persisted;
    bin = readFileSync(binaryPath(file));
  } catch (error) {
    return {
      stale: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no saved index' : `unreadable saved index (${(error as Error).message})`,
    };
  }
  if (data?.format !== FORMAT || data.fingerprint !== FINGERPRINT) return { stale: 'the saved index is from another version' };
  if (!sameInputs(data, corpus)) return { stale: 'class files changed since the index was saved' };
  if (data.manual !== manual)
    return { stale: 'the manual (manualDir, or the manual shipped with the plugin) changed since the index was saved' };
  const binary = readBinary(data.engine, data.buildId, bin);
  if (!binary) return { stale: `${binaryPath(file)} does not belong to ${file}` };
  const classes: ClassEntry[] = data.classes.map(([name, inherits, f, brief]) =>
    inherits ? { name, inherits, file: f, brief } : { name, file: f, brief },
  );
  const docs: DocEntry[] = data.docs.map(([code, cls, name, refs, enumName]) => {
    const doc: DocEntry = { kind: CODE_KINDS[code.toLowerCase()], cls, name };
    if (code !== code.toLowerCase()) doc.virtual = true;
    if (refs) doc.refs = refs;
    if (enumName) doc.enum = enumName;
    return doc;
  });
  for (const [id, status] of data.status ?? []) if (docs[id]) docs[id].status = status;
  return { index: { classes, docs, warnings: data.warnings, ...binary } };
}
