// The kit's worker threads: typed messages in and out, a signal that ends the worker, a heap limit
// worded by the plugin, and no worker left behind whatever way the run ends.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { liveWorkers, runWorker, workerScript } from '../../src/kit/index.js';

const ECHO = new URL('../fixtures/workers/echo.mjs', import.meta.url);
type Reply = { type: 'part'; n: number } | { type: 'done'; text: string };

function run(mode: string, signal?: AbortSignal) {
  const parts: number[] = [];
  return {
    parts,
    done: runWorker<Reply, string, { mode: string; text?: string }>(ECHO, {
      data: { mode, text: 'hi' },
      signal,
      resourceLimits: { maxOldGenerationSizeMb: 16 },
      receive(m, finish) {
        if (m.type === 'part') parts.push(m.n);
        else finish(m.text);
      },
      outOfMemory: () => new Error('too large for 16 MB'),
    }),
  };
}

describe('worker threads', () => {
  it('runs a job with typed messages and ends the worker after it', async () => {
    const job = run('echo');
    await expect(job.done).resolves.toBe('echo hi');
    expect(job.parts).toEqual([1]);
    await vi.waitFor(() => expect(liveWorkers()).toBe(0));
  });

  it('ends a running worker when the signal aborts, with the signal reason', async () => {
    const controller = new AbortController();
    const job = run('hang', controller.signal);
    await vi.waitFor(() => expect(liveWorkers()).toBe(1));
    controller.abort(new Error('cancelled by the client'));
    await expect(job.done).rejects.toThrow('cancelled by the client');
    await vi.waitFor(() => expect(liveWorkers()).toBe(0));
    await expect(run('echo', AbortSignal.abort(new Error('already'))).done).rejects.toThrow('already');
  });

  it('says what the plugin says when the heap runs out, and names an early exit', async () => {
    await expect(run('hog').done).rejects.toThrow('too large for 16 MB');
    await expect(run('exit').done).rejects.toThrow('stopped (exit code 3) before it finished');
    await vi.waitFor(() => expect(liveWorkers()).toBe(0));
  });

  it('finds a compiled worker beside its module, or none', () => {
    expect(workerScript(ECHO, './echo.mjs')?.href).toBe(ECHO.href);
    expect(workerScript(ECHO, './absent.js')).toBeUndefined();
    const source = pathToFileURL(fileURLToPath(new URL('../../plugins/pob/build/parse-job.ts', import.meta.url)));
    expect(workerScript(source, './parse-worker.js', { fromDist: false })).toBeUndefined();
  });
});
