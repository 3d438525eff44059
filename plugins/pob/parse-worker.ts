// Worker thread entry: parses (and analyzes) one large build away from the event loop. Its heap,
// the parsed element tree, dies with the worker.
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeBuild } from './analyze.js';
import { bounded } from './bounded.js';
import { parseBuildXml } from './xml.js';

const { xml, field, analyze } = workerData as { xml: string; field: string; analyze: boolean };
try {
  const root = parseBuildXml(xml, field);
  parentPort!.postMessage({ ok: true, analysis: analyze ? bounded(analyzeBuild(root)) : undefined });
} catch (error) {
  const e = error as { message: string; code?: string; data?: unknown };
  parentPort!.postMessage({ ok: false, error: { message: e.message, code: e.code, data: e.data } });
}
