// An MCP server mirrored as a backend's lists: one supervised client and the mirror of its tools,
// prompts, resources and templates, built from the first context the host hands over, plus start,
// stop and the health round trip. Mounted `servers` entries are one each; the unreal plugin holds
// one per editor server and adds what its editors need on top.
import type { BackendContext } from '../backend/types.js';
import { UpstreamClient, type UpstreamOptions, type UpstreamStatus } from './mcp/client.js';
import { createMirror, type Mirror, type MirrorOptions } from './mcp/mirror.js';
import { checkUpstream } from './mcp/health.js';

export interface MirroredBackendOptions<C = unknown> {
  /** The backend name: the prefix of the published tool names, and the name in messages. */
  name: string;
  /** How to reach the server, from the context (the logger and the list-change relay are added). */
  client(ctx: BackendContext<C>): Omit<UpstreamOptions, 'name' | 'logger' | 'onListChanged'>;
  /** What the mirror publishes beyond the server's own lists: tool filters, resource fallbacks. */
  mirror?(client: UpstreamClient, ctx: BackendContext<C>): Omit<MirrorOptions, 'name' | 'client' | 'logger' | 'cacheDir'>;
}

export interface MirroredBackend<C = unknown> {
  /** The client and its mirror, built on first use. */
  ensure(ctx: BackendContext<C>): { client: UpstreamClient; mirror: Mirror };
  /** The client, if it was built. */
  readonly client: UpstreamClient | undefined;
  tools(ctx: BackendContext<C>): ReturnType<Mirror['tools']>;
  prompts(ctx: BackendContext<C>): ReturnType<Mirror['prompts']>;
  resources(ctx: BackendContext<C>): ReturnType<Mirror['resources']>;
  resourceTemplates(ctx: BackendContext<C>): ReturnType<Mirror['resourceTemplates']>;
  /** Connects (a call then finds a server that is down named as such). */
  start(ctx: BackendContext<C>): Promise<void>;
  stop(): Promise<void>;
  /** A health round trip: the client's status, whether it answered in time, and how many tools it lists. */
  check(ctx: BackendContext<C>): Promise<UpstreamStatus & { answered: boolean; tools?: number }>;
}

export function createMirroredBackend<C = unknown>(options: MirroredBackendOptions<C>): MirroredBackend<C> {
  let up: { client: UpstreamClient; mirror: Mirror } | undefined;

  function ensure(ctx: BackendContext<C>) {
    if (up) return up;
    const client = new UpstreamClient({
      ...options.client(ctx),
      name: options.name,
      logger: ctx.logger,
      onListChanged: (kind) => ctx.notifyListChanged(kind),
    });
    const mirror = createMirror({
      ...options.mirror?.(client, ctx),
      name: options.name,
      client,
      logger: ctx.logger,
      cacheDir: ctx.cacheDir,
    });
    up = { client, mirror };
    return up;
  }

  return {
    ensure,
    get client() {
      return up?.client;
    },
    tools: (ctx) => ensure(ctx).mirror.tools(ctx),
    prompts: (ctx) => ensure(ctx).mirror.prompts(ctx),
    resources: (ctx) => ensure(ctx).mirror.resources(ctx),
    resourceTemplates: (ctx) => ensure(ctx).mirror.resourceTemplates(ctx),
    async start(ctx) {
      await ensure(ctx).client.connect();
    },
    async stop() {
      await up?.client.close();
    },
    async check(ctx) {
      const { client, mirror } = ensure(ctx);
      const status = await checkUpstream(client, mirror, ctx);
      const tools = mirror.toolCount();
      return { ...status, ...(tools !== undefined && { tools }) };
    },
  };
}
