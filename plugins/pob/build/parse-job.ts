// Parsing a build: small ones (every real build) in the calling thread, large ones in a worker
// thread (the kit's runWorker) that the call's signal (timeout, cancellation, shutdown) ends, with a
// heap limit.
import { ToolError, toolErrorCode } from '../../../src/backend/index.js';
import { runWorker, workerScript } from '../../../src/kit/index.js';
import { analyzeBuild, type BuildAnalysis } from './analyze.js';
import { bounded } from './bounded.js';
import { WORKER_HEAP_MB, WORKER_MIN_BYTES } from './limits.js';
import type { ParseReply, ParseRequest } from './parse-worker.js';
import { parseBuildXml } from './xml.js';

const WORKER = workerScript(import.meta.url, './parse-worker.js');

function inWorker(script: URL, xml: string, field: string, analyze: boolean, signal?: AbortSignal): Promise<BuildAnalysis | undefined> {
  return runWorker<ParseReply, BuildAnalysis | undefined, ParseRequest>(script, {
    data: { xml, field, analyze },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    signal,
    receive(m, finish) {
      if (!m.ok) throw new ToolError(m.error.message, { code: toolErrorCode(m.error.code), data: m.error.data });
      finish(m.analysis);
    },
    outOfMemory: () =>
      new ToolError(`${field}: too large to parse within ${WORKER_HEAP_MB} MiB of memory`, { code: 'TOO_LARGE', data: { field } }),
  });
}

async function run(xml: string, field: string, analyze: boolean, signal?: AbortSignal): Promise<BuildAnalysis | undefined> {
  if (xml.length >= WORKER_MIN_BYTES && WORKER) return inWorker(WORKER, xml, field, analyze, signal);
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
