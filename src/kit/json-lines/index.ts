// `mcphost/kit/json-lines`: a long-lived child process or a TCP peer speaking newline-delimited JSON
// (the mechanism only; a plugin's recycling policy stays in the plugin).
export { JsonLinesPeer, LineBuffer, PeerError } from './peer.js';
export type { JsonLinesPeerOptions, RequestOptions } from './peer.js';
export { JsonLinesProcess } from './process.js';
export type { ProcessStats } from './process.js';
export { ProcessError } from './process-error.js';
export type { ProcessErrorCode } from './process-error.js';
export type { JsonLinesProcessOptions, JsonMessage } from './process-options.js';
export { residentBytes } from './resident.js';
export { ConnectError, JsonLinesTcpClient } from './tcp.js';
export type { JsonLinesTcpOptions } from './tcp.js';
