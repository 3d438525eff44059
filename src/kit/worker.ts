// Worker threads for a plugin's heavy work, one way for every plugin: the worker is a module file
// (never source text run by `eval`), its messages are typed on both sides, a call's signal ends it,
// and running out of its heap is an error the plugin can word. From the TypeScript sources (tests),
// the compiled copy of the worker file under dist/ is used, since a worker cannot run TypeScript.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort, Worker, workerData, type ResourceLimits, type Transferable } from 'node:worker_threads';

const KIT_DIR = path.dirname(fileURLToPath(import.meta.url));
/** The repository when the kit runs from its TypeScript sources (src/kit), else undefined. */
const SOURCE_ROOT = path.basename(path.dirname(path.dirname(KIT_DIR))) === 'dist' ? undefined : path.resolve(KIT_DIR, '../..');

/**
 * The worker module `relative` to `moduleUrl` (a plugin's `import.meta.url`), as a compiled `.js`
 * file: beside the module when it is compiled, else (with `fromDist`, the default) its copy under
 * dist/; undefined when there is none (a plugin then does the work in its own thread).
 */
export function workerScript(moduleUrl: string | URL, relative: string, options: { fromDist?: boolean } = {}): URL | undefined {
  const beside = fileURLToPath(new URL(relative, moduleUrl));
  if (existsSync(beside)) return pathToFileURL(beside);
  if (!SOURCE_ROOT || options.fromDist === false) return undefined;
  const inDist = path.join(SOURCE_ROOT, 'dist', path.relative(SOURCE_ROOT, beside));
  return existsSync(inDist) ? pathToFileURL(inDist) : undefined;
}

export interface WorkerStartOptions<D> {
  /** Given to the worker as `workerSide().data` (structured clone). */
  data?: D;
  resourceLimits?: ResourceLimits;
  /** Keep the process alive while the worker runs (default false: a one-shot `call` exits when done). */
  ref?: boolean;
}

/** A worker whose messages are typed: `Req` goes to it, `Rep` comes back. */
export interface TypedWorker<Req, Rep> {
  post(message: Req, transfer?: readonly Transferable[]): void;
  onMessage(listener: (message: Rep) => void): void;
  /** The worker failed (threw, or ran out of memory: `code` ERR_WORKER_OUT_OF_MEMORY). */
  onError(listener: (error: Error & { code?: string }) => void): void;
  onExit(listener: (code: number) => void): void;
  terminate(): Promise<number>;
}

let live = 0;
/** Worker threads started through the kit and not yet exited (tests check that none outlives its call). */
export const liveWorkers = (): number => live;

export function startWorker<Req, Rep, D = unknown>(script: URL, options: WorkerStartOptions<D> = {}): TypedWorker<Req, Rep> {
  const worker = new Worker(script, { workerData: options.data, resourceLimits: options.resourceLimits });
  if (!options.ref) worker.unref();
  live++;
  worker.once('exit', () => live--);
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (listener) => void worker.on('message', listener),
    onError: (listener) => void worker.on('error', listener),
    onExit: (listener) => void worker.on('exit', listener),
    terminate: () => worker.terminate(),
  };
}

export interface RunWorkerOptions<Rep, R, D> extends WorkerStartOptions<D> {
  /** Ends the worker and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Each message from the worker; `finish` settles the run with its value (the worker is then ended). */
  receive(message: Rep, finish: (value: R) => void): void;
  /** The error to reject with when the worker exhausts its heap (default: the worker's own error). */
  outOfMemory?(): Error;
}

/** One job on a worker of its own: resolves with what `receive` finishes with; the worker never outlives it. */
export function runWorker<Rep, R, D = unknown>(script: URL, options: RunWorkerOptions<Rep, R, D>): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    options.signal?.throwIfAborted();
    const worker = startWorker<never, Rep, D>(script, { ref: true, ...options });
    const { signal } = options;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
      void worker.terminate();
    };
    const onAbort = () => settle(() => reject(signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.onMessage((message) => {
      try {
        options.receive(message, (value) => settle(() => resolve(value)));
      } catch (error) {
        settle(() => reject(error));
      }
    });
    worker.onError((error) =>
      settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' && options.outOfMemory ? options.outOfMemory() : error)),
    );
    worker.onExit((code) => settle(() => reject(new Error(`a worker thread stopped (exit code ${code}) before it finished`))));
  });
}

/** Inside a worker module: its data, and its typed port (`Req` comes in, `Rep` goes out). */
export function workerSide<D, Req, Rep>(): {
  data: D;
  post(message: Rep, transfer?: readonly Transferable[]): void;
  onMessage(listener: (message: Req) => void): void;
} {
  const port = parentPort;
  if (!port) throw new Error('workerSide() is for a worker thread: start this module with startWorker or runWorker');
  return {
    data: workerData as D,
    post: (message, transfer) => port.postMessage(message, transfer),
    onMessage: (listener) => void port.on('message', listener),
  };
}
