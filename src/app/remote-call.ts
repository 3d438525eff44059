// `mcphost call --url http://127.0.0.1:7010/mcp …`: the call goes to a running `mcphost serve`
// through the official SDK client, so backends keep their state between calls from a shell (load a
// build with pob_lua_load_build, then read its stats). The tool's flags come from the schema the
// server lists, as in-process; plugin settings are the server's business and are not flags here.
import type { Tool } from '@modelcontextprotocol/client';
import { closest } from '../kit/closest.js';
import { publicName } from '../registry/names.js';
import { UnknownNameError } from '../registry/errors.js';
import { errorOutcome, resultError, type CallOutcome } from '../registry/result.js';
import type { JsonSchema } from '../registry/schemas.js';
import type { ToolResult } from '../backend/types.js';
import { UpstreamClient } from '../kit/mcp/client.js';
import { callArguments } from './call/arguments.js';
import { localFileHint, readAtFiles } from './call/local-files.js';
import type { OneShotRequest } from './one-shot.js';
import { openConfig } from './open.js';

export interface RemoteCallRequest extends Omit<OneShotRequest, 'builtinRoot' | 'installed'> {
  url: URL;
}

/** The longest a call waits without --timeout: the server's own tool timeout applies first. */
const NO_CLIENT_DEADLINE_MS = 2 ** 31 - 1;

export async function runRemoteCall(request: RemoteCallRequest): Promise<CallOutcome> {
  const { resolved, logger, logLevel } = await openConfig(request);
  request.onShutdownMs?.(resolved.config.timeouts.shutdownMs);
  const url = request.url.href;
  // The token `mcphost serve` would require in this same directory (flag-less: env, then .mcprc).
  const token = resolved.config.http.token;
  const client = new UpstreamClient({
    name: url,
    // Tasks are a 2026-07-28 extension; a plain call keeps the 2025 handshake every server speaks.
    ...(request.asTask && { protocol: '2026-07-28' as const }),
    target: { kind: 'http', url, ...(token && { headers: { Authorization: `Bearer ${token}` } }) },
    logger: logger.child('call'),
    sseFallback: false,
    describeDown: (reason) =>
      `no mcphost serve answers at ${url}: ${reason} — start one with \`mcphost serve --http ${request.url.port || 7010}\``,
  });
  try {
    const tools = await listAll(client, request.signal);
    const tool = findRemoteTool(tools, request.plugin, request.tool, url);
    const given = callArguments(request, request.flags ?? [], tool.inputSchema as JsonSchema, tool.name);
    const args = readAtFiles(given, resolved.cwd);
    const onProgress = request.onProgress;
    if (request.asTask) {
      const { callAsTask } = await import('./task-call.js');
      const shutdownMs = resolved.config.timeouts.shutdownMs;
      let outcome: CallOutcome;
      try {
        outcome = await client.request(
          (c) =>
            callAsTask(c, tool.name, args, {
              signal: request.signal,
              onProgress: onProgress && ((p) => onProgress(p, logLevel)),
              timeoutMs: request.timeoutMs,
              cancelWaitMs: Math.max(100, shutdownMs - 250),
              onTask: (id) => logger.debug(`${tool.name} runs as task ${id} at ${url}`),
              tool,
            }),
          request.signal,
        );
      } catch (error) {
        if (request.signal?.aborted)
          return errorOutcome('cancelled', 'CANCELLED', `tool ${tool.name} was cancelled: ${String(request.signal.reason)}`);
        throw error;
      }
      if (outcome.error && outcome.error.kind !== 'cancelled')
        outcome = { ...outcome, error: withFileHint(outcome.error, given, resolved.cwd) };
      await request.onOutcome?.(outcome);
      return outcome;
    }
    let result: ToolResult;
    try {
      result = (await client.request(
        (c) =>
          c.callTool(
            { name: tool.name, arguments: args, ...(request.timeoutMs && { _meta: { 'mcphost/timeoutMs': request.timeoutMs } }) },
            {
              signal: request.signal,
              timeout: request.timeoutMs ? request.timeoutMs + 5_000 : NO_CLIENT_DEADLINE_MS,
              resetTimeoutOnProgress: !request.timeoutMs,
              onprogress: onProgress && ((p) => onProgress(p, logLevel)),
            },
          ),
        request.signal,
      )) as ToolResult;
    } catch (error) {
      // Interrupted (Ctrl-C): the server was told to cancel; report it as a local call's cancel.
      if (request.signal?.aborted)
        return errorOutcome('cancelled', 'CANCELLED', `tool ${tool.name} was cancelled: ${String(request.signal.reason)}`);
      throw error;
    }
    const outcome: CallOutcome = result.isError ? { result, error: withFileHint(resultError(result), given, resolved.cwd) } : { result };
    await request.onOutcome?.(outcome);
    return outcome;
  } finally {
    await client.close();
  }
}

/** A path the server refused that is a file here: the error says how to send it. */
function withFileHint(
  error: NonNullable<CallOutcome['error']>,
  args: Record<string, unknown>,
  cwd: string,
): NonNullable<CallOutcome['error']> {
  if (error.code !== 'NOT_FOUND' && error.code !== 'PATH_NOT_ALLOWED') return error;
  const hint = localFileHint(args, cwd);
  return hint ? { ...error, message: `${error.message}\n${hint}` } : error;
}

async function listAll(client: UpstreamClient, signal?: AbortSignal): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.request((c) => c.listTools(cursor ? { cursor } : undefined, { signal }), signal);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** `<plugin> <tool>` is published as `<plugin>_<tool>`; a single name is taken as published. */
function findRemoteTool(tools: Tool[], plugin: string | undefined, local: string, url: string): Tool {
  const wanted = plugin ? publicName(plugin, local) : local;
  const found = tools.find((t) => t.name === wanted);
  if (found) return found;
  const names = tools.map((t) => t.name);
  const hint = closest(wanted, names);
  throw new UnknownNameError(
    'tool',
    wanted,
    names,
    ` at ${url}${hint.length ? `; did you mean ${hint.join(', ')}?` : `; it serves ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`}`,
  );
}
