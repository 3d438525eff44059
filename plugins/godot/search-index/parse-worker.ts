// Worker thread entry: parses its share of the class files and counts their terms. The entries go
// back to the main thread a batch at a time (so the worker does not hold them all), then the
// partial index, moving its typed arrays instead of copying them. Its heap (the parsed XML trees,
// the texts) dies with the worker.
import { workerSide } from '../../../src/kit/index.js';
import { PartialIndex, transferList } from './partial.js';
import { processFiles, type FileTask, type ProcessedRun } from './process.js';

export interface ParseWorkerData {
  root: string;
  tasks: FileTask[];
}

export type ParseWorkerReply =
  { type: 'files'; files: ProcessedRun['files']; done: number } | { type: 'done'; partial: ProcessedRun['partial'] };

const BATCH = 32;
const side = workerSide<ParseWorkerData, never, ParseWorkerReply>();
const { root, tasks } = side.data;
const partial = new PartialIndex();
for (let start = 0; start < tasks.length; start += BATCH) {
  const files = processFiles(root, tasks.slice(start, start + BATCH), partial);
  side.post({ type: 'files', files, done: Math.min(tasks.length, start + BATCH) });
}
const data = partial.finish();
side.post({ type: 'done', partial: data }, transferList(data));
