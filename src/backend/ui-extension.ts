// The MCP Apps extension (`io.modelcontextprotocol/ui`, SEP-1865) as the contract names it: the host
// declares it to the clients it serves, the kit declares it to the servers it mounts, and a plugin's
// view is a resource of this MIME type. One place, so that the kit need not reach into the registry.

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** What mcphost declares to the servers it mounts: it relays HTML views (each client is checked on use). */
export const RELAYED_UI_EXTENSION: Record<string, { mimeTypes: string[] }> = { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } };
