// Worker thread entry: parses its share of the class files and counts their terms. The entries go
// back to the main thread a batch at a time (so the worker does not hold them all), then the
// partial index, moving its typed arrays instead of copying them. Its heap (the parsed XML trees,
// the texts) dies with the worker.
import { parentPort, workerData } from 'node:worker_threads';
import { PartialIndex, transferList } from './partial.js';
import { processFiles, type FileTask } from './process.js';

const BATCH = 32;
const { root, tasks } = workerData as { root: string; tasks: FileTask[] };
const partial = new PartialIndex();
for (let start = 0; start < tasks.length; start += BATCH) {
  const files = processFiles(root, tasks.slice(start, start + BATCH), partial);
  parentPort!.postMessage({ type: 'files', files, done: Math.min(tasks.length, start + BATCH) });
}
const data = partial.finish();
parentPort!.postMessage({ type: 'done', partial: data }, transferList(data));
