// Worker thread entry: parses its share of the class files and posts the result back, moving the
// typed arrays instead of copying them. Its heap (the parsed XML trees) dies with the worker.
import { parentPort, workerData } from 'node:worker_threads';
import { transferList } from './partial.js';
import { processFiles, type FileTask } from './process.js';

const { root, tasks } = workerData as { root: string; tasks: FileTask[] };
const run = processFiles(root, tasks, (done) => parentPort!.postMessage({ type: 'progress', done }));
parentPort!.postMessage({ type: 'done', run }, transferList(run.partial));
