// The union of the active backends, as the server and the commands use it: a facade over its three
// parts — the catalog of what they publish (catalog.ts), the calls into it (dispatch.ts) and their
// life (lifecycle.ts). Knows nothing of transports.
import type { InputRequiredResult, ListKind, PromptResult, ResourceListing } from '../backend/types.js';
import type { LoadedBackend } from '../loader/load.js';
import type { BackendHost } from './backend-host.js';
import { Catalog } from './catalog.js';
import { HostClient } from './clients.js';
import { Dispatch, type ReadAnswer } from './dispatch.js';
import { RegistryError, UnknownNameError } from './errors.js';
import { FileRoots } from './files.js';
import { Lifecycle } from './lifecycle.js';
import { DEFAULT_LIMITS, type Limits } from './limits.js';
import type {
  BackendGauge,
  CallOptions,
  CallRecord,
  PublishedPrompt,
  PublishedTemplate,
  PublishedTool,
  RegistryOptions,
} from './published.js';
import type { CallOutcome } from './result.js';

export type * from './published.js';

export class Registry {
  readonly hosts: BackendHost[] = [];
  readonly limits: Limits;
  /** The client of one-shot commands and of callers that name none. */
  readonly localClient = new HostClient('in-process');
  private readonly catalog: Catalog;
  private readonly dispatch: Dispatch;
  private readonly lifecycle: Lifecycle;

  private constructor(loaded: LoadedBackend[], options: RegistryOptions) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    const { logger, timeouts, serving } = options;
    const shutdown = new AbortController();
    const files = new FileRoots(options.files?.roots ?? loaded.flatMap((l) => l.paths ?? []), options.files?.cwd ?? process.cwd());
    this.catalog = new Catalog(this.hosts, { logger, serving });
    const env = { shutdown: shutdown.signal, toolMs: timeouts.toolMs, logger, limits: this.limits, localClient: this.localClient };
    this.dispatch = new Dispatch(this.catalog, env);
    const parts = { hosts: this.hosts, catalog: this.catalog, dispatch: this.dispatch, files, shutdown };
    this.lifecycle = new Lifecycle({ ...parts, localClient: this.localClient, logger, timeouts, serving }, loaded);
  }

  /** Builds the registry; two entries with one public name are an error naming both plugins. */
  static async create(loaded: LoadedBackend[], options: RegistryOptions): Promise<Registry> {
    const names = new Map<string, string>();
    for (const l of loaded) {
      const other = names.get(l.name);
      if (other) throw new RegistryError(`two backends are named ${l.name} (${other} and ${l.origin.location})`);
      names.set(l.name, l.origin.location);
    }
    const registry = new Registry(loaded, options);
    await registry.catalog.rebuild(true);
    return registry;
  }

  /**
   * Resolves once the listings backends said are pending (a mounted server still starting, nothing
   * cached) are known, or each has waited `timeouts.firstListMs` since it was said: what a client's
   * `tools/list` waits for, so the first one after start-up lists the servers that come up in time.
   */
  async listingsSettled(): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.listingsSettled()));
  }

  host(plugin: string): BackendHost | undefined {
    return this.hosts.find((h) => h.name === plugin);
  }

  /**
   * Live reconfiguration (a reload of .mcprc): the backends named in `remove` leave the lists at
   * once and are stopped (their calls in progress end as at shutdown), those in `add` join, lazy as
   * at start-up; `roots` replaces the file roots of remote clients. Clients are then told that every
   * list changed. Clients and their sessions are untouched.
   */
  reconfigure(change: { remove: string[]; add: LoadedBackend[]; roots?: readonly string[] }): Promise<void> {
    return this.lifecycle.reconfigure(change);
  }

  /** Tells every listener that a list changed (a reload that changed what `tools/list` shows). */
  notifyListChanged(kind: ListKind): void {
    this.lifecycle.listChanged(kind);
  }

  onListChanged(listener: (kind: ListKind) => void): () => void {
    return this.lifecycle.onListChanged(listener);
  }

  /** Told of every finished tool call (metrics). */
  onCall(listener: (record: CallRecord) => void): () => void {
    return this.dispatch.onCall(listener);
  }

  /** Tells the onCall listeners of a call refused before it reached the registry (HTTP's 429). */
  recordCall(record: CallRecord): void {
    this.dispatch.record(record);
  }

  /** The gauges the backends published (ctx.gauge). */
  gauges(): BackendGauge[] {
    return this.lifecycle.gauges();
  }

  tools(plugin?: string): Promise<PublishedTool[]> {
    return this.catalog.tools(plugin);
  }

  /** A tool by its public name if the catalog is built and lists it (findTool waits for the rest). */
  listedTool(name: string): PublishedTool | undefined {
    return this.catalog.listedTool(name);
  }

  /**
   * A tool by its public name; waits for a backend still starting whose tools the name may be.
   * Also by a backend's own name for it, as a view calls it (`client`: whose views were read).
   */
  findTool(name: string, client?: HostClient): Promise<PublishedTool> {
    return this.lifecycle.findTool(name, client);
  }

  /** A tool by its plugin-local name, as `mcphost call <plugin> <tool>` takes it. */
  findLocalTool(plugin: string, local: string): Promise<PublishedTool> {
    if (!this.host(plugin))
      return Promise.reject(
        new UnknownNameError(
          'plugin',
          plugin,
          this.hosts.map((h) => h.name),
        ),
      );
    return this.catalog.localTool(plugin, local);
  }

  /** Calls a tool. Every failure is an error result; only an unknown name throws. */
  async callTool(name: string, args: unknown, options: CallOptions = {}): Promise<CallOutcome> {
    return this.dispatch.invoke(await this.findTool(name), args, options);
  }

  invoke(tool: PublishedTool, args: unknown, options: CallOptions = {}): Promise<CallOutcome> {
    return this.dispatch.invoke(tool, args, options);
  }

  /** Whether `client`'s policy lets it see and read the resources and prompts of `plugin` (see policy.ts). */
  mayUseBackend(client: HostClient | undefined, plugin: string): Promise<boolean> {
    return this.dispatch.mayUseBackend(client, plugin);
  }

  resources(plugin?: string): Promise<Array<ResourceListing & { plugin: string }>> {
    return this.catalog.resources(plugin);
  }

  resourceTemplates(plugin?: string): Promise<PublishedTemplate[]> {
    return this.catalog.resourceTemplates(plugin);
  }

  /** See Dispatch.readResource. */
  readResource(uri: string, options: CallOptions = {}): Promise<ReadAnswer> {
    return this.dispatch.readResource(uri, options);
  }

  /**
   * Subscribes `listener` to changes of `uri`. Throws UnknownNameError for a URI no backend serves
   * and NotWatchableError for one whose backend cannot watch it, a RequestError (-32003) for one
   * `client`'s policy keeps from it; resolves to the unsubscribe.
   */
  /** Refuses (RequestError -32003) a watch of `uri` that `client`'s policy keeps from it; an unknown URI throws UnknownNameError. */
  checkWatch(uri: string, client: HostClient): Promise<void> {
    return this.dispatch.checkWatch(uri, client);
  }

  async watch(uri: string, listener: (uri: string) => void, client?: HostClient): Promise<() => void> {
    // A client may hear of changes only to what it may read (its policy, like resources/read).
    await this.dispatch.checkWatch(uri, client);
    return this.lifecycle.watch(uri, listener);
  }

  completeTemplate(uriTemplate: string, argument: string, value: string): Promise<string[]> {
    return this.dispatch.completeTemplate(uriTemplate, argument, value);
  }

  prompts(plugin?: string): Promise<PublishedPrompt[]> {
    return this.catalog.prompts(plugin);
  }

  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options: CallOptions = {},
  ): Promise<PromptResult | InputRequiredResult> {
    return this.dispatch.getPrompt(name, args, options);
  }

  /** Health of every backend, keyed by plugin name. */
  async health(): Promise<Record<string, Awaited<ReturnType<BackendHost['health']>>>> {
    const reports = await Promise.all(this.hosts.map(async (h) => [h.name, await h.health()] as const));
    return Object.fromEntries(reports);
  }

  /**
   * Backends published without their prefix (`prefix: false`) are started first and the names
   * checked again, so that a clash of theirs with another's is a start-up error naming both (their
   * lists are not known before they start: a mounted server's come when it answers).
   */
  checkBareNames(): Promise<void> {
    return this.lifecycle.checkBareNames();
  }

  /** Starts the backends marked `eager`; a failure is logged, not fatal. */
  startEager(): Promise<void> {
    return this.lifecycle.startEager();
  }

  /** Runs `fn` when the registry closes (before the backends stop). */
  onClose(fn: () => void): void {
    this.lifecycle.onClose(fn);
  }

  /** Aborts running calls, waits for them, then stops every backend. Safe to call twice. */
  close(): Promise<void> {
    return this.lifecycle.close();
  }
}
