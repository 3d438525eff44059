// Cold build: parse every class file (in worker threads on machines with cores to spare), put the
// results together in file order, give every symbol the anchor text other descriptions hold about
// it, and count the terms. A file that does not parse is skipped with a warning naming it, with
// line and column; the rest is served.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ProgressUpdate } from '../../../src/backend/index.js';
import type { Corpus } from '../corpus/discover.js';
import { BM25F } from '../ranking-params.js';
import { resolveAnchors } from './anchor-targets.js';
import { Engine } from './engine.js';
import type { ClassEntry, DocEntry, DocFields } from './entries.js';
import { PartialIndex } from './partial.js';
import { processFiles, type FileResult, type FileTask } from './process.js';
import { clearTermCache } from './tokenize.js';

export interface BuildOptions {
  signal?: AbortSignal;
  progress?: (update: ProgressUpdate) => void;
  warn?: (message: string) => void;
  /** Parse workers; default: one per core but one (up to 3) on 3+ cores for 200 files or more, else none. */
  workers?: number;
}

export interface BuiltIndex {
  classes: ClassEntry[];
  docs: DocEntry[];
  engine: Engine;
  warnings: string[];
}

const BATCH = 32;
const WORKER = new URL('./parse-worker.js', import.meta.url);

/**
 * Parse workers for a real doc folder on a machine with three cores or more: one per core but
 * one, up to three; the main thread then only merges (it stays free, and the parse garbage dies
 * with the workers). On one or two cores a worker costs more than it saves (measured: ~1.1 s in
 * the main thread against ~1.5 s in one worker for Godot 4's reference), so the main thread
 * parses, yielding between batches of files.
 */
function defaultWorkers(files: number): number {
  // The worker script exists once compiled; tests that import the TypeScript parse in-thread.
  const cores = availableParallelism();
  if (files < 200 || cores < 3 || !existsSync(fileURLToPath(WORKER))) return 0;
  return Math.min(3, cores - 1);
}

async function inThread(root: string, tasks: FileTask[], options: BuildOptions, report: (done: number) => void): Promise<FileResult[]> {
  const files: FileResult[] = [];
  for (let start = 0; start < tasks.length; start += BATCH) {
    report(start);
    // Let progress notifications (and other requests) out between batches.
    await yieldToLoop();
    options.signal?.throwIfAborted();
    files.push(...processFiles(root, tasks.slice(start, start + BATCH)));
  }
  report(tasks.length);
  return files;
}

function inWorker(root: string, tasks: FileTask[], signal: AbortSignal | undefined, onDone: (done: number) => void): Promise<FileResult[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { root, tasks } });
    const abort = () => void worker.terminate().then(() => reject(signal!.reason));
    signal?.addEventListener('abort', abort, { once: true });
    let result: FileResult[] | undefined;
    worker.on('message', (msg: { type: string; done?: number; files?: FileResult[] }) => {
      if (msg.type === 'progress') onDone(msg.done!);
      else if (msg.type === 'done') result = msg.files;
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      signal?.removeEventListener('abort', abort);
      if (result) resolve(result);
      else reject(new Error(`parse worker exited with code ${code} before finishing`));
    });
  });
}

async function inWorkers(
  root: string,
  tasks: FileTask[],
  count: number,
  options: BuildOptions,
  report: (done: number) => void,
): Promise<FileResult[]> {
  // Round-robin shares balance big and small files across workers.
  const shares = Array.from({ length: count }, (_, w) => tasks.filter((_, i) => i % count === w));
  const done = new Array<number>(count).fill(0);
  const runs = await Promise.all(
    shares.map((share, w) =>
      inWorker(root, share, options.signal, (n) => {
        done[w] = n;
        report(done.reduce((a, b) => a + b, 0));
      }).catch((error: Error) => {
        if (options.signal?.aborted) throw error;
        options.warn?.(`a parse worker failed (${error.message}); parsing its files in the main thread`);
        return processFiles(root, share);
      }),
    ),
  );
  return runs.flat();
}

const INDEX_BATCH = 2000;

/** Puts the files together in file order: class table, symbol table, popularity, anchors, ranking engine. */
async function assemble(
  results: FileResult[],
  options: BuildOptions,
  warn: (message: string) => void,
): Promise<Omit<BuiltIndex, 'warnings'>> {
  const files = [...results].sort((a, b) => a.i - b.i);
  const classes: ClassEntry[] = [];
  const docs: DocEntry[] = [];
  const fields: DocFields[] = [];
  const seen = new Map<string, string>();
  const refs = new Map<string, number>();
  const anchorsByClass: Array<Array<[string, string]>> = [];
  for (const file of files) {
    if ('error' in file) {
      warn(file.error);
      continue;
    }
    const first = seen.get(file.cls.name);
    if (first) {
      warn(`skipped ${file.cls.file}: class ${file.cls.name} is already defined by ${first}`);
      continue;
    }
    seen.set(file.cls.name, file.cls.file);
    const cls = classes.push(file.cls) - 1;
    for (const { entry, fields: f } of file.docs) {
      (entry as DocEntry).cls = cls;
      docs.push(entry as DocEntry);
      fields.push(f);
    }
    anchorsByClass.push(file.anchors);
    for (const [ref, n] of file.refs) refs.set(ref, (refs.get(ref) ?? 0) + n);
  }
  for (const d of docs) {
    const count = refs.get(d.kind === 'class' ? d.name : `${classes[d.cls].name}.${d.name}`);
    if (count) d.refs = count;
  }
  resolveAnchors(classes, docs, anchorsByClass, fields);
  const partial = new PartialIndex();
  for (let start = 0; start < fields.length; start += INDEX_BATCH) {
    await yieldToLoop();
    options.signal?.throwIfAborted();
    for (let d = start; d < Math.min(fields.length, start + INDEX_BATCH); d++) partial.add(fields[d]);
  }
  return { classes, docs, engine: new Engine(partial.finish(), BM25F) };
}

export async function buildIndex(corpus: Corpus, options: BuildOptions = {}): Promise<BuiltIndex> {
  const warnings: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    options.warn?.(message);
  };
  const total = corpus.files.length + 1;
  const tasks = corpus.files.map((f, i) => ({ i, rel: f.rel }));
  let last = -1;
  const report = (done: number) => {
    if (done <= last) return;
    last = done;
    options.progress?.({ progress: done, total, message: `parsing Godot class XML (${done}/${corpus.files.length})` });
  };
  const workers = options.workers ?? defaultWorkers(tasks.length);
  const files =
    workers > 0
      ? await inWorkers(corpus.root, tasks, workers, { ...options, warn }, report)
      : await inThread(corpus.root, tasks, options, report);
  options.signal?.throwIfAborted();
  report(corpus.files.length);
  options.progress?.({ progress: total - 0.5, total, message: 'indexing symbols' });
  const built = await assemble(files, options, warn);
  clearTermCache();
  return { ...built, warnings };
}
