// The plugin toolkit (`import { … } from 'mcphost/kit'`): what a backend may use besides the contract,
// the same for built-in and third-party plugins: file reads and atomic writes, worker threads, "did
// you mean", zod issue lines, a silent logger. Nothing here loads a child-process or MCP library:
// those are `mcphost/kit/json-lines` (src/kit/json-lines/index.ts) and `mcphost/kit/upstream`
// (src/kit/upstream.ts). Each list is explicit: adding a name is a public-API decision, pinned by
// test/house/public-api.test.ts.
export { stageFileSync, writeFileAtomic, writeFileAtomicSync } from './atomic-write.js';
export type { AtomicWriteOptions, StagedFile } from './atomic-write.js';
export { closest, distance } from './closest.js';
export { liveWorkers, runWorker, startWorker, workerScript, workerSide } from './worker.js';
export type { RunWorkerOptions, TypedWorker, WorkerStartOptions } from './worker.js';
export { silentLogger } from './silent-logger.js';
export { fileKind, NotRegularFileError, openRegularFile, readRegularFile, readRegularFileSync } from './regular-file.js';
export type { FileKind } from './regular-file.js';
export { formatIssueLines, issueLines } from './zod-issues.js';
export type { IssueLine } from './zod-issues.js';
