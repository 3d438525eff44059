// `mcphost/kit/upstream`: the supervised MCP client and an MCP server mirrored as a backend, for a
// plugin that fronts a program's own MCP server (unreal, exile, stock ImHex). Importing it loads the
// MCP SDK; the rest of the kit does not.
export { UpstreamClient, describeError } from './mcp/client.js';
export type { UpstreamAuth, UpstreamOptions, UpstreamState, UpstreamStatus, UpstreamTarget } from './mcp/client.js';
export { createMirror, templateVariables } from './mcp/mirror.js';
export { globMatcher } from './glob.js';
export type { Mirror, MirrorOptions } from './mcp/mirror.js';
export { checkUpstream, healthWaitMs } from './mcp/health.js';
export { createMirroredBackend } from './mirrored-backend.js';
export type { MirroredBackend, MirroredBackendOptions } from './mirrored-backend.js';
