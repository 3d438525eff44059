// The registry exposed as an MCP server (the SDK's low-level `Server`). Every handler asks the
// registry, so building an instance is cheap: HTTP builds one per modern-era request.
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, Server } from '@modelcontextprotocol/server';
import type { ProgressUpdate } from '../backend/types.js';
import { InvalidParamsError, UnknownNameError } from '../registry/errors.js';
import type { Registry } from '../registry/registry.js';

export interface ServerInfo {
  name: string;
  version: string;
}

/** `_meta` key a client may set on tools/call to override the tool's timeout (milliseconds). */
export const TIMEOUT_META_KEY = 'mcphost/timeoutMs';

const PROGRESS_SETTLE_MS = 10;

export function instructionsFor(registry: Registry): string {
  const lines = registry.hosts.map((h) => `- ${h.name}: ${h.backend.description}`);
  return `mcphost serves these backends; tool names start with the backend name.\n${lines.join('\n')}`;
}

export function createServer(registry: Registry, info: ServerInfo, instructions = instructionsFor(registry)): Server {
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

  server.setRequestHandler('tools/list', async () => ({
    tools: (await registry.tools()).map((t) => ({
      name: t.publicName,
      ...(t.def.title !== undefined && { title: t.def.title }),
      description: t.def.description,
      inputSchema: t.inputSchema as { type: 'object' },
      ...(t.outputSchema && { outputSchema: t.outputSchema as { type: 'object' } }),
      ...(t.def.annotations && { annotations: t.def.annotations }),
    })),
  }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args, _meta } = request.params;
    const token = ctx.mcpReq._meta?.progressToken ?? _meta?.progressToken;
    // The result must not overtake the last progress notification: the SDK client handles a
    // notification one microtask after reading it but a response at once, and forgets the progress
    // handler with the response. So every notification is written first, and when there were any,
    // the response waits a few milliseconds so it does not share a read with the last one.
    const sent: Array<Promise<unknown>> = [];
    const onProgress =
      token === undefined
        ? undefined
        : (p: ProgressUpdate) =>
            void sent.push(
              ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, ...p } }).catch(() => undefined),
            );
    const requested = Number((ctx.mcpReq._meta as Record<string, unknown> | undefined)?.[TIMEOUT_META_KEY]);
    try {
      const outcome = await registry.callTool(name, args ?? {}, {
        signal: ctx.mcpReq.signal,
        onProgress,
        timeoutMs: Number.isFinite(requested) && requested > 0 ? requested : undefined,
      });
      if (sent.length > 0) {
        await Promise.all(sent);
        await new Promise((resolve) => setTimeout(resolve, PROGRESS_SETTLE_MS));
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
      return (await registry.readResource(request.params.uri, { signal: ctx.mcpReq.signal })) as never;
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
      return (await registry.getPrompt(request.params.name, request.params.arguments, { signal: ctx.mcpReq.signal })) as never;
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
  if (error instanceof UnknownNameError || error instanceof InvalidParamsError) {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
  }
  return new ProtocolError(ProtocolErrorCode.InternalError, error instanceof Error ? error.message : String(error));
}

function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
