// What a client sees of the registry's tools: every tool (`flat`), or the three meta-tools plus the
// pinned tools (`discover`). Either way every published tool can be called by its own name, and a
// call through `mcphost_call_tool` runs exactly as a direct one (same arguments check, timeout,
// progress, cancellation, client, result). The index behind `mcphost_find_tools` is rebuilt after
// the registry's tools change, so a server that comes up later, or a reload, is searchable.
import type { Logger } from '../backend/types.js';
import { UnknownNameError } from '../registry/errors.js';
import { closest } from '../kit/closest.js';
import type { CallOptions, PublishedTool, Registry } from '../registry/registry.js';
import type { CallOutcome } from '../registry/result.js';
import { globMatcher } from '../kit/glob.js';
import { listedTo, listedTool, type ListedTool } from './listing.js';
import { isAppOnly } from '../registry/views.js';
import {
  CALL_TOOL,
  callInput,
  DEFAULT_FIND_LIMIT,
  DESCRIBE_TOOL,
  describeInput,
  FIND_TOOLS,
  findInput,
  jsonOutcome,
  META_NAMES,
  META_TOOLS,
  metaArgs,
  unknownToolOutcome,
} from './meta-tools.js';
import { ToolIndex } from './tool-index.js';
import type { HostClient } from '../registry/clients.js';
import { policyRefusal } from '../registry/policy-refusal.js';

export type ToolMode = 'flat' | 'discover';

export interface ToolSettings {
  mode: ToolMode;
  /** Tools listed beside the meta-tools in discover mode: public names or `*` globs. */
  pinned: readonly string[];
}

export class ToolSurface {
  private settings: ToolSettings = { mode: 'flat', pinned: [] };
  private pinned: (name: string) => boolean = () => false;
  private index?: { generation: number; index: ToolIndex };
  private generation = 0;

  constructor(
    private readonly registry: Registry,
    private readonly logger?: Logger,
  ) {
    registry.onListChanged((kind) => {
      if (kind === 'tools') this.generation++;
    });
  }

  get mode(): ToolMode {
    return this.settings.mode;
  }

  get pinnedPatterns(): readonly string[] {
    return this.settings.pinned;
  }

  configure(settings: ToolSettings): void {
    this.settings = { mode: settings.mode, pinned: [...settings.pinned] };
    this.pinned = settings.pinned.length ? globMatcher([...settings.pinned]) : () => false;
  }

  /**
   * What `tools/list` answers; `views`: the client renders MCP Apps views, and is listed each tool's
   * `_meta` and the tools meant for views only (see registry/views.ts).
   */
  async list(views = false, client?: HostClient): Promise<ListedTool[]> {
    const policy = client?.access?.policy;
    const tools = (await this.registry.tools()).filter((t) => listedTo(t, views) && (!policy || policy.tool(t.publicName).allowed));
    if (this.settings.mode === 'flat') return tools.map((t) => listedTool(t, views));
    const pinned = tools.filter((t) => this.pinned(t.publicName) && !META_NAMES.has(t.publicName));
    return [...META_TOOLS, ...pinned.map((t) => listedTool(t, views))];
  }

  /** Whether `name` is one of the meta-tools this surface answers itself (discover mode). */
  isMeta(name: string): boolean {
    return this.settings.mode === 'discover' && META_NAMES.has(name);
  }

  /** What `tools/call` answers: a meta-tool's answer, or the named tool's. An unknown name throws UnknownNameError. */
  async call(name: string, args: unknown, options: CallOptions): Promise<CallOutcome> {
    if (this.isMeta(name)) return this.meta(name, args, options);
    return this.registry.callTool(name, args, options);
  }

  /** The ranked tools for a query (what `mcphost_find_tools` answers): of those `client` may call. */
  async find(query: string, limit = DEFAULT_FIND_LIMIT, client?: HostClient) {
    const policy = client?.access?.policy;
    return (await this.currentIndex()).search(query, limit, policy && ((name) => policy.tool(name).allowed));
  }

  private async meta(name: string, args: unknown, options: CallOptions): Promise<CallOutcome> {
    if (name === FIND_TOOLS) {
      const checked = metaArgs(name, findInput, args);
      if ('outcome' in checked) return checked.outcome;
      return jsonOutcome({ tools: await this.find(checked.value.query, checked.value.limit, options.client) });
    }
    if (name === DESCRIBE_TOOL) {
      const checked = metaArgs(name, describeInput, args);
      if ('outcome' in checked) return checked.outcome;
      // Its answer goes to the model: a tool for views only is not described (it stays callable).
      const found = await this.lookup(checked.value.name, { modelOnly: true });
      if ('outcome' in found) return found.outcome;
      // A tool the client may not call is not described to it either: the refusal names the rule.
      const refused = policyRefusal(options.client, found.tool.publicName);
      return refused ?? jsonOutcome({ ...listedTool(found.tool) });
    }
    const checked = metaArgs(CALL_TOOL, callInput, args);
    if ('outcome' in checked) return checked.outcome;
    const found = await this.lookup(checked.value.name);
    if ('outcome' in found) return found.outcome;
    return this.registry.invoke(found.tool, checked.value.arguments ?? {}, options);
  }

  private async lookup(name: string, options: { modelOnly?: boolean } = {}): Promise<{ tool: PublishedTool } | { outcome: CallOutcome }> {
    try {
      if (META_NAMES.has(name)) throw new UnknownNameError('tool', name);
      const tool = await this.registry.findTool(name);
      if (options.modelOnly && isAppOnly(tool.meta)) throw new UnknownNameError('tool', name);
      return { tool };
    } catch (error) {
      if (!(error instanceof UnknownNameError)) throw error;
      const names = (await this.registry.tools()).filter((t) => !options.modelOnly || !isAppOnly(t.meta)).map((t) => t.publicName);
      return { outcome: unknownToolOutcome(name, closest(name, names)) };
    }
  }

  private async currentIndex(): Promise<ToolIndex> {
    const generation = this.generation;
    if (this.index?.generation === generation) return this.index.index;
    const tools = await this.registry.tools();
    const started = performance.now();
    const index = ToolIndex.build(
      tools
        .filter((t) => !META_NAMES.has(t.publicName) && !isAppOnly(t.meta))
        .map((t) => ({
          name: t.publicName,
          title: t.def.title,
          description: t.def.description,
          inputSchema: t.inputSchema,
          backend: { name: t.host.name, description: t.host.backend.description },
        })),
    );
    this.logger?.debug(`discover: indexed ${index.size} tools in ${Math.round(performance.now() - started)} ms`);
    // A change while it was built: this index may already be stale, so it answers this search only.
    if (generation === this.generation) this.index = { generation, index };
    return index;
  }
}

const surfaces = new WeakMap<Registry, ToolSurface>();

/** The registry's tool surface (flat until configured). */
export function toolSurface(registry: Registry, logger?: Logger): ToolSurface {
  let surface = surfaces.get(registry);
  if (!surface) {
    surface = new ToolSurface(registry, logger);
    surfaces.set(registry, surface);
  }
  return surface;
}

/** The pinned patterns in force for a registry (none until configured). */
export function pinnedOf(registry: Registry): readonly string[] {
  return surfaces.get(registry)?.pinnedPatterns ?? [];
}
