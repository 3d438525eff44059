// The registry exposed as an MCP server (the SDK's low-level `Server`). Every handler asks the
// registry, so building an instance is cheap: HTTP builds one per modern-era request.
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, Server } from '@modelcontextprotocol/server';
import type { ProgressUpdate } from '../backend/types.js';
import { InvalidParamsError, UnknownNameError } from '../registry/errors.js';
import { capText, clampTimeout } from '../registry/limits.js';
import type { Registry } from '../registry/registry.js';
import type { HostClient } from '../registry/clients.js';
import { toolSurface } from '../discover/surface.js';
import { FIND_TOOLS } from '../discover/meta-tools.js';
import { traceOf } from './trace.js';

export interface ServerInfo {
  name: string;
  version: string;
}

/** `_meta` key a client may set on tools/call to override the tool's timeout (milliseconds). */
export const TIMEOUT_META_KEY = 'mcphost/timeoutMs';

export function instructionsFor(registry: Registry): string {
  const lines = registry.hosts.map((h) => `- ${h.name}: ${h.backend.description}`);
  const discover =
    toolSurface(registry).mode === 'discover'
      ? `\nMost tools are not listed: find them with ${FIND_TOOLS} (plain words), then describe and call them.`
      : '';
  return `mcphost serves these backends; tool names start with the backend name.${discover}\n${lines.join('\n')}`;
}

export interface ServerOptions {
  /** The client this instance serves (default: the registry's in-process client). */
  client?: HostClient;
  /**
   * After a call that sent progress, ping the client and answer only once it replied (2025-era
   * stdio): see the tools/call handler.
   */
  confirmProgress?: boolean;
}

/** How long a client gets to answer that ping before the response goes out anyway. */
const CONFIRM_PROGRESS_MS = 1_000;

export function createServer(registry: Registry, info: ServerInfo, options: ServerOptions = {}): Server {
  const instructions = instructionsFor(registry);
  const server = new Server(
    { name: info.name, version: info.version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      },
      instructions,
    },
  );

  const tools = toolSurface(registry);
  server.setRequestHandler('tools/list', async () => ({ tools: await tools.list() }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args, _meta } = request.params;
    const token = ctx.mcpReq._meta?.progressToken ?? _meta?.progressToken;
    // Every progress notification is written before the response (what the protocol asks). That is
    // not enough for the SDK client (1.x and 2.4) over stdio: it runs a notification's handler a
    // microtask after reading it but a response's at once, and the response forgets the progress
    // handler, so the last notification, read in the same chunk as the response, is dropped
    // (modelcontextprotocol/typescript-sdk#2580; 45 of 50 calls without a wait). No delay fixes a
    // pipe, but a ping does: the client answers it only after handling what it read before it, so
    // once the pong is back every notification was delivered. Pings exist only in the 2025 era;
    // over HTTP each SSE event is read on its own, and nothing needs confirming.
    const sent: Array<Promise<unknown>> = [];
    const onProgress =
      token === undefined
        ? undefined
        : (p: ProgressUpdate) =>
            void sent.push(
              ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...p } }).catch(() => undefined),
            );
    const requested = Number((ctx.mcpReq._meta as Record<string, unknown> | undefined)?.[TIMEOUT_META_KEY]);
    // Clamped to what setTimeout can wait: 2^31 ms would otherwise fire at once.
    try {
      const outcome = await tools.call(name, args ?? {}, {
        signal: ctx.mcpReq.signal,
        client: options.client,
        onProgress,
        timeoutMs: Number.isFinite(requested) && requested > 0 ? clampTimeout(requested) : undefined,
        trace: traceOf(ctx.mcpReq._meta) ?? traceOf(_meta),
      });
      await Promise.all(sent);
      if (options.confirmProgress && sent.length > 0) {
        await ctx.mcpReq.send({ method: 'ping' }, { timeout: CONFIRM_PROGRESS_MS, signal: ctx.mcpReq.signal }).catch(() => undefined);
      }
      return outcome.result as never;
    } catch (error) {
      throw toProtocolError(error);
    }
  });

  server.setRequestHandler('resources/list', async () => ({
    resources: (await registry.resources()).map(({ plugin: _plugin, ...r }) => dropUndefined(r)) as never,
  }));

  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: (await registry.resourceTemplates()).map(({ def }) =>
      dropUndefined({
        uriTemplate: def.uriTemplate,
        name: def.name,
        title: def.title,
        description: def.description,
        mimeType: def.mimeType,
      }),
    ) as never,
  }));

  server.setRequestHandler('resources/read', async (request, ctx) => {
    try {
      return (await registry.readResource(request.params.uri, { signal: ctx.mcpReq.signal, client: options.client })) as never;
    } catch (error) {
      if (error instanceof UnknownNameError)
        throw new ResourceNotFoundError(request.params.uri, `Resource ${request.params.uri} not found`);
      throw toProtocolError(error);
    }
  });

  server.setRequestHandler('prompts/list', async () => ({
    prompts: (await registry.prompts()).map((p) =>
      dropUndefined({ name: p.publicName, title: p.def.title, description: p.def.description, arguments: p.arguments }),
    ) as never,
  }));

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    try {
      return (await registry.getPrompt(request.params.name, request.params.arguments, {
        signal: ctx.mcpReq.signal,
        client: options.client,
      })) as never;
    } catch (error) {
      throw toProtocolError(error);
    }
  });

  server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument } = request.params;
    const values = ref.type === 'ref/resource' ? await registry.completeTemplate(ref.uri, argument.name, argument.value) : [];
    return { completion: { values, total: values.length, hasMore: false } };
  });

  return server;
}

function toProtocolError(error: unknown): Error {
  if (error instanceof ProtocolError) return error;
  const message = capText(error instanceof Error ? error.message : String(error));
  if (error instanceof UnknownNameError || error instanceof InvalidParamsError) {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
  }
  return new ProtocolError(ProtocolErrorCode.InternalError, message);
}

function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
