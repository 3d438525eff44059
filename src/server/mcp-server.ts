// The registry exposed as an MCP server (the SDK's low-level `Server`). Every handler asks the
// registry, so building an instance is cheap: HTTP builds one per modern-era request.
import { ProtocolError, ProtocolErrorCode, Server, type ServerContext } from '@modelcontextprotocol/server';
import { isRequestError } from '../backend/errors.js';
import { InvalidParamsError, UnknownNameError } from '../registry/errors.js';
import { capText } from '../registry/limits.js';
import type { Registry } from '../registry/registry.js';
import type { HostClient } from '../registry/clients.js';
import { callerKey } from '../registry/identity.js';
import { toolSurface } from '../discover/surface.js';
import { FIND_TOOLS } from '../discover/meta-tools.js';
import { UI_EXTENSION } from '../backend/ui-extension.js';
import { rendersViews } from '../registry/views.js';
import { capabilitiesOf, SessionLogLevel } from './channel.js';
import { installReadCalls } from './read-calls.js';
import { servicesOf, type HostServices } from './services.js';
import { installTaskHandlers } from './tasks/handlers.js';
import { TASKS_EXTENSION } from './tasks/store.js';
import { installToolCalls } from './tool-calls.js';
import { installSubscriptions } from './subscriptions.js';

export interface ServerInfo {
  name: string;
  version: string;
}

function instructionsFor(registry: Registry): string {
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
   * stdio): see tool-calls.ts.
   */
  confirmProgress?: boolean;
  /** The protocol generation this instance serves (`modern`: 2026-07-28, with tasks). */
  era?: 'legacy' | 'modern';
  /** What the host's instances share (default: one set per registry). */
  services?: HostServices;
  /** The session's log level (default: this instance's own; stdio's fast path reads it too). */
  session?: SessionLogLevel;
}

export function createServer(registry: Registry, info: ServerInfo, options: ServerOptions = {}): Server {
  const instructions = instructionsFor(registry);
  const services = options.services ?? servicesOf(registry);
  const modern = options.era === 'modern';
  const server = new Server(
    { name: info.name, version: info.version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
        // Views of mounted servers and plugins are relayed (to clients that declare the extension too).
        extensions: { [UI_EXTENSION]: {}, ...(modern && { [TASKS_EXTENSION]: {} }) },
      },
      instructions,
      requestState: { verify: services.seal.verify },
    },
  );
  const client = options.client ?? registry.localClient;
  const session = options.session ?? new SessionLogLevel();
  session.install(server);

  const tools = toolSurface(registry);
  // A client that renders views is listed their `_meta` and the tools for views only (registry/views.ts).
  const views = (ctx: ServerContext) => rendersViews(capabilitiesOf(server, ctx));
  server.setRequestHandler('tools/list', async (_request, ctx) => {
    await registry.listingsSettled();
    return { tools: await tools.list(views(ctx), client) };
  });
  // A named client is listed the resources and prompts of the backends its policy lets it use.
  const usable = async <T extends { plugin: string }>(entries: T[]): Promise<T[]> => {
    if (!client.access) return entries;
    const plugins = [...new Set(entries.map((e) => e.plugin))];
    const allowed = new Set<string>();
    for (const p of plugins) if (await registry.mayUseBackend(client, p)) allowed.add(p);
    return entries.filter((e) => allowed.has(e.plugin));
  };

  installToolCalls(server, registry, {
    client,
    services,
    session,
    confirmProgress: options.confirmProgress,
    surface: tools,
    toProtocolError,
  });
  installReadCalls(server, registry, { client, services, session, toProtocolError });
  if (modern) installTaskHandlers(server, services.tasks, callerKey(client.identity));
  installSubscriptions(server, registry, client);

  server.setRequestHandler('resources/list', async (_request, ctx) => {
    const shown = views(ctx);
    return {
      resources: (await usable(await registry.resources())).map(({ plugin: _plugin, _meta, ...r }) =>
        dropUndefined({ ...r, _meta: shown ? _meta : undefined }),
      ),
    };
  });

  server.setRequestHandler('resources/templates/list', async (_request, ctx) => {
    const shown = views(ctx);
    return {
      resourceTemplates: (await usable(await registry.resourceTemplates())).map(({ def }) =>
        dropUndefined({
          uriTemplate: def.uriTemplate,
          name: def.name,
          title: def.title,
          description: def.description,
          mimeType: def.mimeType,
          _meta: shown ? def._meta : undefined,
        }),
      ),
    };
  });

  server.setRequestHandler('prompts/list', async () => ({
    prompts: (await usable(await registry.prompts())).map((p) =>
      dropUndefined({ name: p.publicName, title: p.def.title, description: p.def.description, arguments: p.arguments }),
    ),
  }));

  server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument } = request.params;
    // A template of a backend the client may not read completes to nothing, as one that does not exist.
    const template =
      ref.type === 'ref/resource' && client.access
        ? (await usable(await registry.resourceTemplates())).find((t) => t.def.uriTemplate === ref.uri)
        : undefined;
    const hidden = ref.type === 'ref/resource' && client.access !== undefined && template === undefined;
    const values = ref.type === 'ref/resource' && !hidden ? await registry.completeTemplate(ref.uri, argument.name, argument.value) : [];
    return { completion: { values, total: values.length, hasMore: false } };
  });

  return server;
}

function toProtocolError(error: unknown): Error {
  if (error instanceof ProtocolError) return error;
  if (isRequestError(error)) return new ProtocolError(error.code, capText(error.message), error.data);
  const message = capText(error instanceof Error ? error.message : String(error));
  if (error instanceof UnknownNameError || error instanceof InvalidParamsError) {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
  }
  return new ProtocolError(ProtocolErrorCode.InternalError, message);
}

function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
