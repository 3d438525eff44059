// One tool as `tools/list` shows it: the same shape for the flat list, the pinned tools of the
// discover mode, `mcphost_describe_tool` and the token counts of `mcphost tools --tokens`.
import type { PublishedTool } from '../registry/registry.js';
import { isAppOnly } from '../registry/views.js';

export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** `views`: the client renders MCP Apps views, and is listed the tool's `_meta` (see registry/views.ts). */
export function listedTool(t: PublishedTool, views = false): ListedTool {
  return {
    name: t.publicName,
    ...(t.def.title !== undefined && { title: t.def.title }),
    description: t.def.description,
    inputSchema: t.inputSchema as ListedTool['inputSchema'],
    ...(t.outputSchema && { outputSchema: t.outputSchema as ListedTool['inputSchema'] }),
    ...(t.def.annotations && { annotations: t.def.annotations as Record<string, unknown> }),
    ...(views && t.meta && { _meta: t.meta }),
  };
}

/** Whether a client is listed the tool: a tool for views only is listed to view-rendering clients alone. */
export function listedTo(t: PublishedTool, views: boolean): boolean {
  return views || !isAppOnly(t.meta);
}
