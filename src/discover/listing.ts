// One tool as `tools/list` shows it: the same shape for the flat list, the pinned tools of the
// discover mode, `mcphost_describe_tool` and the token counts of `mcphost tools --tokens`.
import type { PublishedTool } from '../registry/registry.js';

export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations?: Record<string, unknown>;
}

export function listedTool(t: PublishedTool): ListedTool {
  return {
    name: t.publicName,
    ...(t.def.title !== undefined && { title: t.def.title }),
    description: t.def.description,
    inputSchema: t.inputSchema as ListedTool['inputSchema'],
    ...(t.outputSchema && { outputSchema: t.outputSchema as ListedTool['inputSchema'] }),
    ...(t.def.annotations && { annotations: t.def.annotations as Record<string, unknown> }),
  };
}
