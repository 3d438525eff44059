// Epic's toolsets' tools as ordinary tools: `unreal_<Class>_<tool>` (names.ts) with the description
// and input schema describe_toolset gave, each called through Epic's own call_tool with its
// arguments brought to that schema where only one meaning is possible (coerce.ts).
import { globMatcher } from '../../../src/kit/upstream.js';
import type { CallContext, ToolDef } from '../../../src/backend/index.js';
import type { EpicCatalog } from './catalog.js';
import { coerceToSchema } from './coerce.js';
import { flatName } from './names.js';

export type CallTool = (
  call: CallContext,
  args: { toolset_name: string; tool_name: string; arguments: Record<string, unknown> },
) => Promise<unknown>;

/** The tools of every described toolset the patterns (full or class names, `*` globs) let through, in list order. */
export function flatTools(cat: EpicCatalog, patterns: string[], callTool: CallTool): ToolDef[] {
  const wanted = globMatcher(patterns);
  const out: ToolDef[] = [];
  for (const listed of cat.listed) {
    const toolset = cat.described.get(listed.name);
    const short = cat.shortNames.get(listed.name);
    if (!toolset || !short || !(wanted(listed.name) || wanted(short))) continue;
    for (const tool of toolset.tools) {
      const toolName = tool.name.startsWith(`${listed.name}.`) ? tool.name.slice(listed.name.length + 1) : tool.name;
      out.push({
        name: flatName(short, listed.name, tool.name),
        description: `${(tool.description ?? '').trim()}\n\n(Epic's Unreal MCP: ${listed.name}.${toolName})`.trim(),
        input: { jsonSchema: { type: 'object', ...(tool.inputSchema ?? {}) } },
        handler: (args: unknown, call: CallContext) =>
          callTool(call, {
            toolset_name: listed.name,
            tool_name: toolName,
            arguments: coerceToSchema(tool.inputSchema, tool.description ?? '', (args ?? {}) as Record<string, unknown>).args,
          }),
      });
    }
  }
  return out;
}
