// `mcphost/kit/legacy`: the kit's index as it was before the subpaths (every name in one module),
// kept for one release so that a third-party plugin written against it keeps loading; it loads the
// MCP SDK whatever is used. New code imports `mcphost/kit`, `mcphost/kit/json-lines` or
// `mcphost/kit/upstream`.
export * from './index.js';
export * from './json-lines/index.js';
export * from './upstream.js';
