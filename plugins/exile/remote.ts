// Remote provider: forwards explore / eval / query to the ExileApi HUD's MCP server (Streamable
// HTTP, by default http://127.0.0.1:5099/mcp) through the SDK client, reconnecting after the HUD
// restarts. Used by the exile plugin in remote mode and by `mcphost exile:snapshot` to record.
import { ToolError, type Logger, type ToolResult } from '../../src/backend/index.js';
import { silentLogger } from '../../src/kit/index.js';
import { UpstreamClient } from '../../src/kit/upstream.js';
import type { ExileProvider, ProviderCallContext } from './provider.js';
import type { EvalArgs, ExploreArgs, QueryArgs } from './schemas.js';

export type HudTool = 'explore' | 'eval' | 'query';
export type HudArgs = { explore: ExploreArgs; eval: EvalArgs; query: QueryArgs };
/** One HUD tool with its arguments. */
export type HudCall = { [K in HudTool]: { tool: K; args: HudArgs[K] } }[HudTool];

export interface RemoteProvider extends ExileProvider {
  /** Calls a HUD tool and returns its CallToolResult unchanged (what the plugin serves). */
  call(tool: HudTool, args: ExploreArgs | EvalArgs | QueryArgs, ctx: ProviderCallContext): Promise<ToolResult>;
  /** Connects if needed; ok with the HUD's name and version, or the reason it cannot be reached. */
  check(): Promise<{ ok: boolean; message: string }>;
}

function hudNotReachable(url: string, reason?: string): string {
  return (
    `ExileApi HUD not reachable at ${url}: start Path of Exile with ExileApi and its MCP server plugin, ` +
    `or set plugins.exile.snapshot to serve a recorded snapshot${reason ? ` (${reason})` : ''}`
  );
}

/** The data of a HUD result: its structured content, else its text parsed as JSON, else the text. */
function resultData(tool: HudTool, result: ToolResult): unknown {
  const text = result.content.map((c) => (c.type === 'text' ? String(c.text) : '')).join('\n');
  if (result.isError) throw new ToolError(`exile ${tool}: ${text || 'the HUD reported an error'}`, { code: 'HUD_ERROR' });
  if (result.structuredContent !== undefined) return result.structuredContent;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function createRemoteProvider(options: { url: string; timeoutMs?: number; logger?: Logger }): RemoteProvider {
  const { url, timeoutMs } = options;
  const client = new UpstreamClient({
    name: 'exile',
    target: { kind: 'http', url },
    logger: options.logger ?? silentLogger,
    connectTimeoutMs: Math.min(timeoutMs ?? 10_000, 10_000),
    describeDown: (reason) => hudNotReachable(url, reason.replace(/ at https?:\/\/\S+/, '').replace(' (is it running?)', '')),
  });

  async function call(tool: HudTool, args: ExploreArgs | EvalArgs | QueryArgs, ctx: ProviderCallContext): Promise<ToolResult> {
    const onprogress = ctx.progress ? (p: { progress: number; total?: number; message?: string }) => ctx.progress!(p) : undefined;
    // A signal of this call's own: fetch leaves an abort listener on the signal it is given until
    // the request is garbage-collected, and a recording makes thousands of calls under one signal.
    const signal = AbortSignal.any([ctx.signal]);
    try {
      const result = await client.request(
        (c) =>
          c.callTool(
            { name: tool, arguments: args as Record<string, unknown> },
            { signal, timeout: timeoutMs ?? 24 * 3_600_000, onprogress },
          ),
        signal,
      );
      return result as ToolResult;
    } catch (error) {
      if ((error as ToolError).code === 'TIMEOUT') {
        throw new ToolError(`exile ${tool}: the HUD did not answer within ${timeoutMs} ms (the call was cancelled)`, {
          code: 'TIMEOUT',
          cause: error,
        });
      }
      throw error;
    }
  }

  const data = async (tool: HudTool, args: ExploreArgs | EvalArgs | QueryArgs, ctx: ProviderCallContext) =>
    resultData(tool, await call(tool, args, ctx));

  return {
    call,
    explore: (args, ctx) => data('explore', args, ctx),
    eval: (args, ctx) => data('eval', args, ctx),
    query: (args, ctx) => data('query', args, ctx),
    async check() {
      await client.probe();
      const status = client.status();
      if (status.state !== 'connected') return { ok: false, message: client.unavailable(status.lastError ?? status.state).message };
      return { ok: true, message: `HUD ${status.server ? `${status.server.name} ${status.server.version} ` : ''}is up at ${url}` };
    },
    close: () => client.close(),
  };
}
