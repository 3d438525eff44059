// Parsing a build: small ones (every real build) in the calling thread, large ones in a worker
// thread that the call's signal (timeout, cancellation, shutdown) terminates, with a heap limit.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ToolError } from '../../src/backend/index.js';
import { analyzeBuild, type BuildAnalysis } from './analyze.js';
import { bounded } from './bounded.js';
import { WORKER_HEAP_MB, WORKER_MIN_BYTES } from './limits.js';
import { parseBuildXml } from './xml.js';

// Beside this file once compiled; from the TypeScript sources (tests), the compiled copy in dist/.
const WORKER = [new URL('./parse-worker.js', import.meta.url), new URL('../../dist/plugins/pob/parse-worker.js', import.meta.url)]
  .map((u) => fileURLToPath(u))
  .find((f) => existsSync(f));

let running = 0;
/** Parse workers alive now (tests check that a cancelled parse leaves none behind). */
export const activeParseWorkers = (): number => running;

function inWorker(xml: string, field: string, analyze: boolean, signal?: AbortSignal): Promise<BuildAnalysis | undefined> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER!, { workerData: { xml, field, analyze }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    running++;
    let settled = false;
    const onAbort = () => {
      settle(() => reject(signal!.reason));
      void worker.terminate();
    };
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: { ok: boolean; analysis?: BuildAnalysis; error?: { message: string; code?: string; data?: unknown } }) =>
      settle(() => (m.ok ? resolve(m.analysis) : reject(new ToolError(m.error!.message, { code: m.error!.code, data: m.error!.data })))),
    );
    worker.on('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ToolError(`${field}: too large to parse within ${WORKER_HEAP_MB} MiB of memory`, { code: 'TOO_LARGE', data: { field } })
            : error,
        ),
      ),
    );
    worker.on('exit', (code) => {
      running--;
      settle(() => reject(new Error(`the build parser stopped (exit code ${code}) before it finished`)));
    });
  });
}

async function run(xml: string, field: string, analyze: boolean, signal?: AbortSignal): Promise<BuildAnalysis | undefined> {
  if (xml.length >= WORKER_MIN_BYTES && WORKER) return inWorker(xml, field, analyze, signal);
  const root = parseBuildXml(xml, field);
  return analyze ? bounded(analyzeBuild(root)) : undefined;
}

/** Checks that `xml` is a Path of Building document; a ToolError names the field and the problem. */
export async function checkBuildXml(xml: string, field: string, signal?: AbortSignal): Promise<void> {
  await run(xml, field, false, signal);
}

/** Parses and analyzes a build. */
export async function analyzeBuildXml(xml: string, field: string, signal?: AbortSignal): Promise<BuildAnalysis> {
  return (await run(xml, field, true, signal))!;
}
