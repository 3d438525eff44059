// Cold build: parse every class file (in worker threads on machines with cores to spare), then
// merge the results in file order. A file
// that does not parse is skipped with a warning naming it, with line and column; the rest is served.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ProgressUpdate } from '../../../src/backend/index.js';
import type { Corpus } from '../corpus/discover.js';
import { mergePartials, type Engine, type MergePart } from './engine.js';
import type { ClassEntry, DocEntry } from './entries.js';
import { PartialIndex } from './partial.js';
import { processFiles, processInto, type FileResult, type FileTask, type ProcessedRun } from './process.js';
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

async function inThread(root: string, tasks: FileTask[], options: BuildOptions, report: (done: number) => void): Promise<ProcessedRun> {
  const partial = new PartialIndex();
  const files: FileResult[] = [];
  for (let start = 0; start < tasks.length; start += BATCH) {
    report(start);
    // Let progress notifications (and worker messages) out between batches.
    await yieldToLoop();
    options.signal?.throwIfAborted();
    files.push(...processInto(partial, root, tasks.slice(start, start + BATCH)));
  }
  report(tasks.length);
  return { files, partial: partial.finish() };
}

function inWorker(root: string, tasks: FileTask[], signal: AbortSignal | undefined, onDone: (done: number) => void): Promise<ProcessedRun> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { root, tasks } });
    const abort = () => void worker.terminate().then(() => reject(signal!.reason));
    signal?.addEventListener('abort', abort, { once: true });
    let result: ProcessedRun | undefined;
    worker.on('message', (msg: { type: string; done?: number; run?: ProcessedRun }) => {
      if (msg.type === 'progress') onDone(msg.done!);
      else if (msg.type === 'done') result = msg.run;
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
): Promise<ProcessedRun[]> {
  // Round-robin shares balance big and small files across workers.
  const shares = Array.from({ length: count }, (_, w) => tasks.filter((_, i) => i % count === w));
  const done = new Array<number>(count).fill(0);
  return Promise.all(
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
}

/** Puts the runs together in file order: class table, symbol table, popularity, ranking engine. */
function assemble(runs: ProcessedRun[], warn: (message: string) => void): Omit<BuiltIndex, 'warnings'> {
  const byFile = runs.flatMap((run, r) => run.files.map((file) => ({ file, r }))).sort((a, b) => a.file.i - b.file.i);
  const parts: MergePart[] = runs.map((run) => ({ data: run.partial, docMap: new Int32Array(run.partial.lengths.length).fill(-1) }));
  const classes: ClassEntry[] = [];
  const docs: DocEntry[] = [];
  const seen = new Map<string, string>();
  const refs = new Map<string, number>();
  for (const { file, r } of byFile) {
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
    file.docs.forEach((entry, k) => {
      // The entries are fresh copies from the worker (or the parse): complete them in place.
      (entry as DocEntry).cls = cls;
      parts[r].docMap[file.firstDoc + k] = docs.push(entry as DocEntry) - 1;
    });
    for (const [ref, n] of file.refs) refs.set(ref, (refs.get(ref) ?? 0) + n);
  }
  for (const d of docs) {
    const count = refs.get(d.kind === 'class' ? d.name : `${classes[d.cls].name}.${d.name}`);
    if (count) d.refs = count;
  }
  return { classes, docs, engine: mergePartials(parts, docs.length) };
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
  const runs =
    workers > 0
      ? await inWorkers(corpus.root, tasks, workers, { ...options, warn }, report)
      : [await inThread(corpus.root, tasks, options, report)];
  options.signal?.throwIfAborted();
  report(corpus.files.length);
  options.progress?.({ progress: total - 0.5, total, message: 'ranking symbols' });
  const built = assemble(runs, warn);
  clearTermCache();
  return { ...built, warnings };
}
