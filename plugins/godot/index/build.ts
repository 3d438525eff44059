// Cold build: read and parse every class file, collect index entries, feed BM25. A file that does
// not parse is skipped with a warning naming it (and the line and column); the rest is served.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ProgressUpdate } from '../../../src/backend/index.js';
import type { Corpus } from '../corpus/discover.js';
import { parseClassXml, XmlDocError } from '../parse/xml.js';
import { EngineBuilder, type Engine } from './engine.js';
import { entriesOf, type ClassEntry, type DocEntry } from './entries.js';

export interface BuildOptions {
  signal?: AbortSignal;
  progress?: (update: ProgressUpdate) => void;
  warn?: (message: string) => void;
}

export interface BuiltIndex {
  classes: ClassEntry[];
  docs: DocEntry[];
  engine: Engine;
  warnings: string[];
}

const BATCH = 64;

export async function buildIndex(corpus: Corpus, options: BuildOptions = {}): Promise<BuiltIndex> {
  const { signal, progress } = options;
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    options.warn?.(message);
  };
  const builder = new EngineBuilder();
  const classes: ClassEntry[] = [];
  const docs: DocEntry[] = [];
  const seen = new Map<string, string>();
  const refs = new Map<string, number>();
  const total = corpus.files.length + 1;
  for (let i = 0; i < corpus.files.length; i++) {
    if (i % BATCH === 0) {
      progress?.({ progress: i, total, message: `parsing Godot class XML (${i}/${corpus.files.length})` });
      await yieldToLoop();
      signal?.throwIfAborted();
    }
    const file = corpus.files[i];
    let parsed;
    try {
      parsed = entriesOf(parseClassXml(readFileSync(path.join(corpus.root, file.rel), 'utf8'), file.rel), file.rel);
    } catch (error) {
      if (error instanceof XmlDocError) warn(`skipped ${path.join(corpus.root, file.rel)}: XML parse error at line ${error.line}, column ${error.col}: ${error.reason}`);
      else warn(`skipped ${path.join(corpus.root, file.rel)}: ${(error as Error).message}`);
      continue;
    }
    const first = seen.get(parsed.cls.name);
    if (first) {
      warn(`skipped ${file.rel}: class ${parsed.cls.name} is already defined by ${first}`);
      continue;
    }
    seen.set(parsed.cls.name, file.rel);
    for (const ref of parsed.refs) refs.set(ref, (refs.get(ref) ?? 0) + 1);
    const clsIndex = classes.push(parsed.cls) - 1;
    for (const { entry, fields } of parsed.docs) {
      docs.push({ ...entry, cls: clsIndex });
      builder.add(fields);
    }
  }
  progress?.({ progress: corpus.files.length, total, message: `ranking ${docs.length} symbols of ${classes.length} classes` });
  await yieldToLoop();
  for (const d of docs) {
    const count = refs.get(d.kind === 'class' ? d.name : `${classes[d.cls].name}.${d.name}`);
    if (count) d.refs = count;
  }
  return { classes, docs, engine: builder.finish(), warnings };
}
