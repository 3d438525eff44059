// Snapshot evaluation off the main thread: a small pool of worker threads, each holding its own
// copy of the snapshot, answers explore / eval / query. The host's thread stays free for every
// other client (pings, other plugins, the HUD), a heavy call holds one thread for at most its time
// budget, and the other threads keep answering. Cancel and timeout reach a running evaluation
// through a shared flag its budget polls; a thread that does not stop within a grace period (or
// runs out of memory) is terminated and replaced.
import { statSync } from 'node:fs';
import { ToolError, UnavailableError, toolErrorCode } from '../../../../src/backend/index.js';
import { startWorker, workerScript, type TypedWorker } from '../../../../src/kit/index.js';
import type { ExileProvider, ProviderCallContext } from '../../provider.js';
import type { HudCall } from '../../remote.js';
import { DEFAULT_TIME_BUDGET_MS } from './eval/budget.js';
import type { EvalWorkerData, PoolReply, PoolRequest } from './pool-protocol.js';

// Only the compiled worker beside this module: tests that import the TypeScript evaluate in-thread.
const WORKER_SCRIPT = workerScript(import.meta.url, './eval-worker.js', { fromDist: false });
const DEFAULT_WORKERS = 2;
/** How long a thread may take to stop after its budget ran out or its call was cancelled. */
const GRACE_MS = 1000;

export interface PoolOptions {
  timeBudgetMs?: number;
  /** Evaluation threads at most (default 2); each loads its own copy of the snapshot. */
  workers?: number;
  /** Heap limit of each thread, MB (default: 1 GB, or 16× the file size for big files). */
  maxHeapMb?: number;
}

export function poolAvailable(): boolean {
  return WORKER_SCRIPT !== undefined;
}

interface Call {
  hud: HudCall;
  ctx: ProviderCallContext;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  settled: boolean;
}

interface Thread {
  worker: TypedWorker<PoolRequest, PoolReply>;
  call?: Call;
  flag?: Int32Array;
  timer?: NodeJS.Timeout;
}

export async function openPool(file: string, options: PoolOptions = {}): Promise<ExileProvider> {
  const budgetMs = options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS;
  const max = Math.max(1, options.workers ?? DEFAULT_WORKERS);
  const heapMb = options.maxHeapMb ?? Math.max(1024, Math.ceil((statSync(file).size / 2 ** 20) * 16));
  const idle: Thread[] = [];
  const threads = new Set<Thread>();
  const queue: Call[] = [];
  let starting = 0;
  let closed = false;
  let nextId = 1;

  const settle = (call: Call, fn: () => void) => {
    if (call.settled) return;
    call.settled = true;
    fn();
  };

  /** A thread that has loaded the snapshot, or the reason it could not. */
  function spawn(): Promise<Thread> {
    starting++;
    return new Promise((resolve, reject) => {
      const worker = startWorker<PoolRequest, PoolReply, EvalWorkerData>(WORKER_SCRIPT!, {
        data: { file, timeBudgetMs: budgetMs },
        resourceLimits: { maxOldGenerationSizeMb: heapMb },
      });
      const thread: Thread = { worker };
      let ready = false;
      worker.onMessage((reply) => {
        if (reply.id === 0) {
          starting--;
          if ('error' in reply) return reject(new UnavailableError(reply.error.message));
          ready = true;
          threads.add(thread);
          return resolve(thread);
        }
        finish(thread, reply);
      });
      worker.onError((error) => {
        if (!ready) {
          starting--;
          return reject(new UnavailableError(`snapshot ${file}: the evaluation thread failed to start: ${error.message}`));
        }
        lost(thread, error);
      });
      worker.onExit(() => lost(thread));
    });
  }

  function finish(thread: Thread, reply: PoolReply): void {
    const call = thread.call;
    clearTimeout(thread.timer);
    thread.call = undefined;
    if (call) {
      if ('error' in reply) {
        const { message, code, data } = reply.error;
        settle(call, () => call.reject(new ToolError(message, { code: toolErrorCode(code), data })));
      } else settle(call, () => call.resolve(reply.ok));
    }
    idle.push(thread);
    pump();
  }

  /** A thread died (killed after its grace period, out of memory, crashed): its call fails, the pool goes on. */
  function lost(thread: Thread, error?: Error & { code?: string }): void {
    if (!threads.delete(thread)) return;
    clearTimeout(thread.timer);
    const i = idle.indexOf(thread);
    if (i >= 0) idle.splice(i, 1);
    const call = thread.call;
    thread.call = undefined;
    if (call) {
      const failure =
        error?.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ToolError(`too large: the call needed more than ${heapMb} MB of memory; narrow it`, {
              code: 'LIMIT_EXCEEDED',
              data: { maxHeapMb: heapMb },
            })
          : new ToolError(`time budget of ${budgetMs} ms exceeded, and the evaluation did not stop: it was ended`, {
              code: 'TIME_BUDGET',
              data: { budgetMs },
            });
      settle(call, () => call.reject(failure));
    }
    pump();
  }

  function run(thread: Thread, call: Call): void {
    if (call.settled) return void idle.push(thread);
    const cancel = new SharedArrayBuffer(4);
    thread.call = call;
    thread.flag = new Int32Array(cancel);
    const kill = (after: number) => {
      clearTimeout(thread.timer);
      thread.timer = setTimeout(() => void thread.worker.terminate(), after);
      thread.timer.unref();
    };
    kill(budgetMs + GRACE_MS);
    const { signal } = call.ctx;
    const onAbort = () => {
      Atomics.store(thread.flag!, 0, 1);
      settle(call, () => call.reject(signal.reason));
      if (thread.call === call) kill(GRACE_MS);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => signal.removeEventListener('abort', onAbort);
    const { resolve, reject } = call;
    call.resolve = (v) => (cleanup(), resolve(v));
    call.reject = (e) => (cleanup(), reject(e));
    thread.worker.post({ ...call.hud, id: nextId++, cancel });
  }

  function pump(): void {
    while (queue.length > 0 && queue[0].settled) queue.shift();
    if (closed || queue.length === 0) return;
    const thread = idle.pop();
    if (thread) {
      run(thread, queue.shift()!);
      return pump();
    }
    if (threads.size + starting < max) {
      spawn().then(
        (t) => {
          idle.push(t);
          pump();
        },
        (error: unknown) => {
          // A replacement that cannot load (the file changed under us): the waiting calls say why.
          if (threads.size + starting === 0) for (const call of queue.splice(0)) settle(call, () => call.reject(error));
        },
      );
    }
  }

  idle.push(await spawn());
  // The others load in the background, so a second client does not wait for a load when it comes.
  for (let i = 1; i < max; i++) {
    spawn().then(
      (t) => (closed ? void t.worker.terminate() : (idle.push(t), pump())),
      () => undefined,
    );
  }

  const submit = (hud: HudCall, ctx: ProviderCallContext) =>
    new Promise<unknown>((resolve, reject) => {
      if (closed) return reject(new UnavailableError('the snapshot is closed'));
      const call: Call = { hud, ctx, resolve, reject, settled: false };
      queue.push(call);
      // Still waiting for a thread: a cancel ends it here (a running call is stopped by run()).
      const onAbort = () => queue.includes(call) && settle(call, () => reject(ctx.signal.reason));
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      call.resolve = (v) => (ctx.signal.removeEventListener('abort', onAbort), resolve(v));
      call.reject = (e) => (ctx.signal.removeEventListener('abort', onAbort), reject(e));
      pump();
    });

  return {
    explore: (args, ctx) => submit({ tool: 'explore', args }, ctx),
    eval: (args, ctx) => submit({ tool: 'eval', args }, ctx),
    query: (args, ctx) => submit({ tool: 'query', args }, ctx),
    async close() {
      closed = true;
      const running = [...threads];
      threads.clear();
      const calls = [...queue.splice(0), ...running.flatMap((t) => (t.call ? [t.call] : []))];
      for (const call of calls) settle(call, () => call.reject(new UnavailableError('the snapshot is closed')));
      for (const t of running) clearTimeout(t.timer);
      await Promise.all(running.map((t) => t.worker.terminate()));
    },
  };
}
