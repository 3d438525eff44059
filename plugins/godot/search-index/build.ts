// Cold build: parse every class file and count its terms (in parse workers for a real doc folder),
// put the runs together in file order, give every symbol the anchor text other descriptions hold
// about it and the manual's words about it, and merge the term statistics. A file that does not parse is skipped with a warning
// naming it, with line and column; the rest is served.
import { availableParallelism } from 'node:os';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { ProgressUpdate } from '../../../src/backend/index.js';
import { runWorker, workerScript } from '../../../src/kit/index.js';
import type { Corpus } from '../corpus/discover.js';
import type { CorpusFile } from '../corpus/discover.js';
import { SymbolTable } from '../manual/resolve.js';
import type { ManualSource } from '../manual/source.js';
import { resolveAnchors } from './anchor-targets.js';
import { Engine } from './engine.js';
import type { ClassEntry, DocEntry } from './entries.js';
import { mergePartials, type MergePart } from './merge.js';
import { FIELD_COUNT, PartialIndex } from './partial.js';
import type { ParseWorkerData, ParseWorkerReply } from './parse-worker.js';
import { processFiles, type FileTask, type ProcessedRun } from './process.js';
import { Summaries } from './summaries.js';
import { clearTermCache } from './tokenize.js';

export interface BuildOptions {
  signal?: AbortSignal;
  progress?: (update: ProgressUpdate) => void;
  warn?: (message: string) => void;
  /** Parse workers; default for 200 files or more: one per core but one, between 1 and 3; none for fewer. */
  workers?: number;
  /** The Godot manual's words about the symbols (the `manual` field); none: the field stays empty. */
  manual?: ManualSource;
}

export interface BuiltIndex {
  classes: ClassEntry[];
  docs: DocEntry[];
  summaries: Summaries;
  engine: Engine;
  warnings: string[];
}

const BATCH = 32;
// Only the compiled worker beside this module: tests that import the TypeScript parse in the main thread.
const WORKER = workerScript(import.meta.url, './parse-worker.js', { fromDist: false });

/**
 * Parse workers for a real doc folder: one per core but one, between one and three. The XML trees
 * and the strings they shed live and die in the workers' own small heaps (RESOURCE_LIMITS), so the
 * serving process does not grow its heap for a build it does once (measured on Godot 4's reference
 * through `mcphost serve`: peak RSS … MB with a worker against … MB parsing in the main thread), and
 * the main thread stays free to answer other requests meanwhile. Small folders (tests, fixtures) are
 * parsed in the main thread, as is everything when the compiled worker script is absent (tests that
 * import the TypeScript).
 */
function defaultWorkers(files: number): number {
  if (files < 200 || !WORKER) return 0;
  return Math.max(1, Math.min(3, availableParallelism() - 1));
}

/** A parse worker's heap: a small young generation (frequent, cheap scavenges) and a bounded old one. */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 192 };

async function inThread(root: string, tasks: FileTask[], options: BuildOptions, report: (done: number) => void): Promise<ProcessedRun> {
  const partial = new PartialIndex();
  const files: ProcessedRun['files'] = [];
  for (let start = 0; start < tasks.length; start += BATCH) {
    report(start);
    // Let progress notifications (and other requests) out between batches.
    await yieldToLoop();
    options.signal?.throwIfAborted();
    files.push(...processFiles(root, tasks.slice(start, start + BATCH), partial));
  }
  report(tasks.length);
  return { files, partial: partial.finish() };
}

function inWorker(root: string, tasks: FileTask[], signal: AbortSignal | undefined, onDone: (done: number) => void): Promise<ProcessedRun> {
  const files: ProcessedRun['files'] = [];
  return runWorker<ParseWorkerReply, ProcessedRun, ParseWorkerData>(WORKER!, {
    data: { root, tasks },
    resourceLimits: RESOURCE_LIMITS,
    signal,
    receive(msg, finish) {
      if (msg.type === 'done') return finish({ files, partial: msg.partial });
      files.push(...msg.files);
      onDone(msg.done);
    },
  });
}

/** Contiguous runs of files of about equal total size, in file order (so documents stay in order). */
function shares(tasks: FileTask[], files: CorpusFile[], count: number): FileTask[][] {
  const total = files.reduce((n, f) => n + f.size, 0);
  const out: FileTask[][] = Array.from({ length: count }, () => []);
  let done = 0;
  for (const task of tasks) {
    out[Math.min(count - 1, Math.floor((done / total) * count))].push(task);
    done += files[task.i].size;
  }
  return out.filter((share) => share.length > 0);
}

async function inWorkers(root: string, runs: FileTask[][], options: BuildOptions, report: (done: number) => void): Promise<ProcessedRun[]> {
  const done = new Array<number>(runs.length).fill(0);
  return Promise.all(
    runs.map((share, w) =>
      inWorker(root, share, options.signal, (n) => {
        done[w] = n;
        report(done.reduce((a, b) => a + b, 0));
      }).catch((error: Error) => {
        if (options.signal?.aborted) throw error;
        options.warn?.(`a parse worker failed (${error.message}); parsing its files in the main thread`);
        const partial = new PartialIndex();
        const files = processFiles(root, share, partial);
        return { files, partial: partial.finish() };
      }),
    ),
  );
}

const INDEX_BATCH = 2000;

/** Puts the runs together in file order: class table, symbol table, popularity, anchors, ranking engine. */
async function assemble(
  runs: ProcessedRun[],
  options: BuildOptions,
  warn: (message: string) => void,
): Promise<Omit<BuiltIndex, 'warnings'>> {
  const classes: ClassEntry[] = [];
  const docs: DocEntry[] = [];
  const texts: string[] = [];
  const seen = new Map<string, string>();
  const refs = new Map<string, number>();
  const anchorsByClass: Array<Array<[string, string]>> = [];
  const parts: MergePart[] = runs.map((run) => ({
    data: run.partial,
    docMap: new Int32Array(run.partial.lengths.length / FIELD_COUNT).fill(-1),
  }));
  // The parts hold the partial indexes from here on (mergePartials lets them go once copied).
  const files = runs.map((run) => run.files);
  runs.length = 0;
  files.forEach((run, r) => {
    for (const file of run) {
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
      file.docs.forEach(({ entry, summary }, k) => {
        (entry as DocEntry).cls = cls;
        parts[r].docMap[file.firstDoc + k] = docs.push(entry as DocEntry) - 1;
        texts.push(summary);
      });
      anchorsByClass.push(file.anchors);
      for (const [ref, n] of file.refs) refs.set(ref, (refs.get(ref) ?? 0) + n);
    }
  });
  for (const d of docs) {
    const count = refs.get(d.kind === 'class' ? d.name : `${classes[d.cls].name}.${d.name}`);
    if (count) d.refs = count;
  }
  const anchorTexts = resolveAnchors(classes, docs, anchorsByClass);
  const manualTexts = options.manual?.texts(new SymbolTable(classes, docs)).texts ?? new Map<number, string>();
  anchorsByClass.length = 0;
  files.length = 0;
  const anchors = new PartialIndex();
  for (let start = 0; start < docs.length; start += INDEX_BATCH) {
    await yieldToLoop();
    options.signal?.throwIfAborted();
    for (let d = start; d < Math.min(docs.length, start + INDEX_BATCH); d++) {
      anchors.add({
        name: '',
        owner: '',
        brief: '',
        body: '',
        code: '',
        anchor: anchorTexts.get(d) ?? '',
        manual: manualTexts.get(d) ?? '',
      });
    }
  }
  const merged = mergePartials(parts, anchors.finish(), docs.length);
  return { classes, docs, summaries: Summaries.from(texts), engine: new Engine(merged) };
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
      ? await inWorkers(corpus.root, shares(tasks, corpus.files, workers), { ...options, warn }, report)
      : [await inThread(corpus.root, tasks, options, report)];
  options.signal?.throwIfAborted();
  report(corpus.files.length);
  options.progress?.({ progress: total - 0.5, total, message: 'indexing symbols' });
  const built = await assemble(runs, options, warn);
  clearTermCache();
  return { ...built, warnings };
}
