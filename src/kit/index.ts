// The plugin toolkit (`import { … } from 'mcphost/kit'`): what a backend may use besides the contract,
// the same for built-in and third-party plugins. One explicit list: adding a name is a public-API
// decision, pinned by test/kit/exports.test.ts.
export { JsonLinesPeer, LineBuffer, PeerError } from './json-lines/peer.js';
export type { JsonLinesPeerOptions, RequestOptions } from './json-lines/peer.js';
export { JsonLinesProcess } from './json-lines/process.js';
export type { ProcessStats } from './json-lines/process.js';
export { ProcessError } from './json-lines/process-error.js';
export type { ProcessErrorCode } from './json-lines/process-error.js';
export type { JsonLinesProcessOptions, JsonMessage } from './json-lines/process-options.js';
export { residentBytes } from './json-lines/resident.js';
export { ConnectError, JsonLinesTcpClient } from './json-lines/tcp.js';
export type { JsonLinesTcpOptions } from './json-lines/tcp.js';
export { UpstreamClient, describeError } from './mcp/client.js';
export type { UpstreamAuth, UpstreamOptions, UpstreamState, UpstreamStatus, UpstreamTarget } from './mcp/client.js';
export { createMirror, globMatcher, templateVariables } from './mcp/mirror.js';
export type { Mirror, MirrorOptions } from './mcp/mirror.js';
export { checkUpstream, healthWaitMs } from './mcp/health.js';
export { stageFileSync, writeFileAtomic, writeFileAtomicSync } from './atomic-write.js';
export type { AtomicWriteOptions, StagedFile } from './atomic-write.js';
export { closest, distance } from './closest.js';
export { liveWorkers, runWorker, startWorker, workerScript, workerSide } from './worker.js';
export type { RunWorkerOptions, TypedWorker, WorkerStartOptions } from './worker.js';
export { createMirroredBackend } from './mirrored-backend.js';
export type { MirroredBackend, MirroredBackendOptions } from './mirrored-backend.js';
export { silentLogger } from './silent-logger.js';
export { fileKind, NotRegularFileError, openRegularFile, readRegularFile, readRegularFileSync } from './regular-file.js';
export type { FileKind } from './regular-file.js';
export { formatIssueLines, issueLines } from './zod-issues.js';
export type { IssueLine } from './zod-issues.js';
