// Worker thread entry: parses its share of the class files and posts the entries back. Its heap
// (the parsed XML trees) dies with the worker.
import { parentPort, workerData } from 'node:worker_threads';
import { processFiles, type FileTask } from './process.js';

const { root, tasks } = workerData as { root: string; tasks: FileTask[] };
const files = processFiles(root, tasks, (done) => parentPort!.postMessage({ type: 'progress', done }));
parentPort!.postMessage({ type: 'done', files });
