// Publishes an upstream MCP server's tools, prompts, resources and templates as a backend's
// listings. While serving, a listing never waits for the server to come up: until it has answered
// (starting, unreachable, restarting) the last lists seen are served — from memory, or from the
// cache file a previous run left — or nothing, the connection is made in the background, and
// clients are told (list_changed) once the server is up. So a server that never answers never holds
// mcphost back, and an editor that is closed keeps its tools listed (they answer "unavailable").
// One-shot commands (ctx.serving false) wait for the server instead, and are told when it cannot
// be reached: the tools listing throws the UnavailableError (the registry records it).
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import type { BackendContext, ListKind, Logger, PromptDef, ResourceDef, ResourceTemplateDef, ToolDef } from '../../backend/types.js';
import type { UpstreamClient } from './client.js';
import { createDefs, templateVariables } from './defs.js';
import { listCache, type ListKey } from './list-cache.js';

export { templateVariables };

export interface MirrorOptions {
  /** The backend name: the prefix of the published tool names. */
  name: string;
  client: UpstreamClient;
  logger: Logger;
  /** Publish only these upstream tools (names or `*` globs). */
  allowedTools?: string[];
  /** Never publish these upstream tools (names or `*` globs). */
  blockedTools?: string[];
  /** Keep the last lists in a file in this folder (the backend's `ctx.cacheDir`), for the next run. */
  cacheDir?: string;
  /** Replaces listing resources through the upstream client (the unreal editor's fallback endpoint). */
  listResources?(): Promise<Resource[]>;
  /** Replaces reading a resource through the upstream client. */
  readResource?(uri: string, signal: AbortSignal): Promise<{ contents: Array<{ uri: string; [k: string]: unknown }> }>;
  /**
   * Decides which of the server's tools are published (pinned tools): given every list, the live
   * one (`live`) and the one remembered from before the server answered.
   */
  filterTools?(tools: Tool[], live: boolean): Tool[];
}

export interface Mirror {
  tools(ctx: BackendContext): Promise<ToolDef[]>;
  prompts(ctx: BackendContext): Promise<PromptDef[]>;
  resources(ctx: BackendContext): Promise<ResourceDef[]>;
  resourceTemplates(ctx: BackendContext): Promise<ResourceTemplateDef[]>;
  /** Forwards list changes to the host (set from the first context the host hands over). */
  notify(kind: ListKind): void;
  /** How many tools were last published. */
  toolCount(): number | undefined;
}

const KINDS = ['tools', 'resources', 'prompts'] as const;

export function createMirror(options: MirrorOptions): Mirror {
  const { client } = options;
  const defs = createDefs(options);
  let notifyHost: ((kind: ListKind) => void) | undefined;
  const known: Partial<Record<ListKey, unknown[]>> = {};
  let completions = false;
  const target = client.options.target;
  const cacheKey = target.kind === 'http' ? target.url : JSON.stringify([target.command, target.args ?? [], target.cwd ?? '']);
  const file = options.cacheDir ? listCache(options.cacheDir, cacheKey, options.logger) : undefined;
  let fileRead = false;
  /** A listing was answered without the server: tell the host when it is up. */
  let provisional = false;
  let background: Promise<void> | undefined;

  const up = () => {
    if (!provisional) return;
    provisional = false;
    for (const kind of KINDS) notifyHost?.(kind);
  };

  /** Connects in the background (no-op while connecting, or once closed). */
  function connectLater(): void {
    provisional = true;
    if (background || client.state === 'closed') return;
    background = client
      .connect()
      .then(up, () => client.watch(up))
      .finally(() => (background = undefined));
  }

  function remembered(key: ListKey): unknown[] | undefined {
    if (!fileRead && file) {
      fileRead = true;
      const cached = file.load();
      for (const [k, items] of Object.entries(cached?.lists ?? {})) known[k as ListKey] ??= items;
      completions ||= cached?.completions === true;
    }
    return known[key];
  }

  function remember(key: ListKey, items: unknown[]): void {
    known[key] = items;
    file?.save({ lists: known, completions });
  }

  /** The server's list when it is connected; else the last one seen (or none) while it connects. */
  async function list<T>(key: ListKey, ctx: BackendContext, read: () => Promise<T[]>): Promise<T[]> {
    notifyHost ??= ctx.notifyListChanged;
    if (client.state !== 'connected' && ctx.serving) {
      connectLater();
      const last = remembered(key) as T[] | undefined;
      // Nothing to show yet (a cold cache): a client's listing may wait a little for this connect.
      if (!last && background) ctx.listingPending?.(background);
      return last ?? [];
    }
    try {
      const items = await read();
      remember(key, items);
      return items;
    } catch (error) {
      if (ctx.serving) {
        if (client.state !== 'connected') connectLater();
        const last = remembered(key) as T[] | undefined;
        if (last) return last;
      }
      // Only the tools listing reports a server that cannot be listed; the other lists are then empty.
      // A one-shot command (`mcphost tools`, `call`) gets the error: the server is down, whatever it listed before.
      if (key !== 'tools' && (error as { code?: unknown }).code === 'UNAVAILABLE') return [];
      throw error;
    }
  }

  /** A list the server does not implement (-32601) is empty, not an error. */
  const optional = async <T>(read: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await read();
    } catch (error) {
      if ((error as { code?: unknown }).code === -32601) return [];
      throw error;
    }
  };

  const capable = async (what: 'prompts' | 'resources') => Boolean((await client.connect()).getServerCapabilities()?.[what]);

  const filtered = (tools: Tool[], live: boolean) => (options.filterTools ? options.filterTools(tools, live) : tools);

  return {
    tools: async (ctx) => {
      let live = false;
      const tools = await list<Tool>('tools', ctx, async () => {
        const answered = (await client.request((c) => c.listTools(undefined, client.listOptions()))).tools;
        live = true;
        return answered;
      });
      return defs.toolDefs(filtered(tools, live));
    },
    prompts: async (ctx) =>
      (
        await list<Prompt>('prompts', ctx, async () =>
          (await capable('prompts'))
            ? optional(async () => (await client.request((c) => c.listPrompts(undefined, client.listOptions()))).prompts)
            : [],
        )
      ).map(defs.promptDef),
    resources: async (ctx) =>
      (
        await list<Resource>('resources', ctx, async () => {
          if (options.listResources) return options.listResources();
          return (await capable('resources'))
            ? optional(async () => (await client.request((c) => c.listResources(undefined, client.listOptions()))).resources)
            : [];
        })
      ).map(defs.resourceDef),
    resourceTemplates: async (ctx) =>
      (
        await list<ResourceTemplate>('templates', ctx, async () => {
          if (!(await capable('resources'))) return [];
          completions = Boolean((await client.connect()).getServerCapabilities()?.completions);
          return optional(
            async () => (await client.request((c) => c.listResourceTemplates(undefined, client.listOptions()))).resourceTemplates,
          );
        })
      ).map((t) => defs.templateDef(t, completions)),
    notify: (kind) => notifyHost?.(kind),
    toolCount: () => (known.tools ? defs.toolDefs(filtered(known.tools as Tool[], false)).length : undefined),
  };
}
