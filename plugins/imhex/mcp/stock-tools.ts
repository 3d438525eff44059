// Stock ImHex's own tools (open_file, execute_pattern_code, get_patterns, …), published as
// imhex_<name> with ImHex's schemas and answered by ImHex unchanged, so pattern-language analysis
// is reachable from every MCP client. One surface: a tool the seed's commands already do is not
// published beside them — under the same name, or read_data, which read_bytes (hex, cut at the
// data's end where ImHex answers zeros), hexdump, search and get_offset_info all read through.
import type { CallContext, ToolDef } from '../../../src/backend/index.js';
import type { ImHexConfig } from '../config.js';
import type { KnownTool } from './known-tools.js';
import { clientSource } from './client-source.js';
import type { StockImHex } from './stock-client.js';

/** A call on behalf of a client is bounded by its own deadline (ctx.signal); this only backs it up. */
const BACKSTOP_MS = 24 * 60 * 60 * 1000;

const READ_ONLY = new Set(['list_open_data_sources', 'read_data', 'get_patterns', 'get_pattern_console_content']);

/** ImHex's tools whose job a seed command does (and does better): not published. */
const COVERED_BY_SEED: ReadonlySet<string> = new Set(['read_data']);

/** What mcphost says first about an ImHex tool it publishes: how it fits with the seed's commands. */
const INTRO: Record<string, string> = {
  open_file: 'Opens a file in ImHex so the imhex_* tools act on it (with stock ImHex this, not the `file` setting, chooses the file). ',
  list_open_data_sources: 'The files (data sources) open in ImHex, with the handle imhex_select_data_source takes. ',
  select_data_source: 'Makes another open file the one the imhex_* tools act on. ',
};

export function stockToolDefs(
  tools: KnownTool[],
  seedNames: Set<string>,
  stockFor: (ctx: CallContext<ImHexConfig>) => Promise<StockImHex>,
): ToolDef<ImHexConfig>[] {
  return tools
    .filter((t) => !seedNames.has(t.name) && !COVERED_BY_SEED.has(t.name))
    .map((t) => ({
      name: t.name,
      title: t.title,
      description: `${INTRO[t.name] ?? ''}${t.description} (stock ImHex's own tool, through its MCP server)`,
      input: { jsonSchema: t.inputSchema },
      output: { jsonSchema: t.outputSchema },
      annotations: READ_ONLY.has(t.name)
        ? { readOnlyHint: true, openWorldHint: false }
        : { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      handler: async (args: unknown, ctx: CallContext<ImHexConfig>) =>
        (await stockFor(ctx)).call(t.name, await fileArgs(t.name, (args ?? {}) as Record<string, unknown>, ctx), {
          signal: ctx.signal,
          timeoutMs: BACKSTOP_MS,
          source: clientSource(ctx.client),
        }),
    }));
}

/** The file ImHex is asked to open is named by the client: through ctx.files, so a remote client reaches only the roots. */
async function fileArgs(tool: string, args: Record<string, unknown>, ctx: CallContext<ImHexConfig>): Promise<Record<string, unknown>> {
  if (tool !== 'open_file' || typeof args.file_path !== 'string') return args;
  return { ...args, file_path: await ctx.files.resolve(args.file_path, { field: 'file_path' }) };
}
