// The union of the active backends: public names, listings, dispatch (one call's run is in
// invoke.ts), resources, prompts, and the lifecycle of every backend. Knows nothing of transports.
import type {
  InputRequiredResult,
  ListKind,
  Logger,
  PromptResult,
  ProgressUpdate,
  PromptDef,
  ResourceContents,
  ResourceDef,
  ResourceListing,
  ResourceTemplateDef,
  ToolDef,
  TraceContext,
} from '../backend/types.js';
import { UnavailableError, isToolError } from '../backend/errors.js';
import { isInputRequired } from '../backend/result.js';
import type { LoadedBackend } from '../loader/load.js';
import { BackendHost } from './backend-host.js';
import { HostClient } from './clients.js';
import type { ClientChannel, InputBroker } from './asks.js';
import { FileRoots } from './files.js';
import { InvalidParamsError, RegistryError, ResultTooLargeError, ShutdownError, UnknownNameError } from './errors.js';
import { withDeadline } from './deadline.js';
import { runTool, tooLargeResult } from './invoke.js';
import { argumentsTooLarge, clampTimeout, DEFAULT_LIMITS, type Limits } from './limits.js';
import { closest, publicName } from './names.js';
import { toReadContents, type CallOutcome } from './result.js';
import { inputJsonSchema, toJsonSchema, type JsonSchema } from './schemas.js';
import { promptArguments, runPrompt } from './prompts.js';
import { route } from './uri-template.js';
import { NotWatchableError, ResourceWatches } from './watches.js';

export interface RegistryOptions {
  logger: Logger;
  timeouts: { toolMs: number; startMs: number; shutdownMs: number };
  /** Serving clients that are told of list changes (`mcphost serve`): see BackendContext.serving. */
  serving?: boolean;
  /** Answer caps (default DEFAULT_LIMITS). */
  limits?: Partial<Limits>;
  /**
   * Clients' file arguments (ctx.files): `roots` (`files.roots`; default: the paths the loaded
   * backends' settings name) and the working directory relative paths of local clients start from.
   */
  files?: { roots?: readonly string[]; cwd?: string };
}

export interface PublishedTool {
  publicName: string;
  plugin: string;
  host: BackendHost;
  def: ToolDef;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
}

export interface PublishedPrompt {
  publicName: string;
  plugin: string;
  host: BackendHost;
  def: PromptDef;
  arguments: Array<{ name: string; description?: string; required: boolean }>;
}

export interface PublishedResource {
  plugin: string;
  host: BackendHost;
  def: ResourceDef;
}

export interface PublishedTemplate {
  plugin: string;
  host: BackendHost;
  def: ResourceTemplateDef;
}

export interface CallOptions {
  /** The caller's cancellation. */
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** Overrides every configured timeout for this call. */
  timeoutMs?: number;
  /** The client the call comes from (default: the registry's own in-process client). */
  client?: HostClient;
  /** The way back to that client for this request (its capabilities, elicitation, logging). */
  channel?: ClientChannel;
  /** Where the call's questions wait when the channel cannot send them (a 2026-era request, a task). */
  broker?: InputBroker;
  /** The caller's trace context (`traceparent` in the request's `_meta`), handed to the handler as ctx.trace. */
  trace?: TraceContext;
}

/** One finished tool call, for monitoring. */
export interface CallRecord {
  tool: string;
  plugin: string;
  durationMs: number;
  outcome: CallOutcome;
}

/** A gauge a backend published (ctx.gauge). */
export interface BackendGauge {
  plugin: string;
  name: string;
  help: string;
  read(): number | undefined;
}

interface Snapshot {
  tools: Map<string, PublishedTool>;
  prompts: Map<string, PublishedPrompt>;
  resources: Map<string, PublishedResource>;
  templates: PublishedTemplate[];
}

type Listener = (kind: ListKind) => void;

export class Registry {
  readonly hosts: BackendHost[];
  private readonly options: RegistryOptions;
  readonly limits: Limits;
  private readonly shutdown = new AbortController();
  private snapshot?: Promise<Snapshot>;
  private readonly listeners = new Set<Listener>();
  private readonly callListeners = new Set<(record: CallRecord) => void>();
  private readonly gaugeMap = new Map<string, BackendGauge>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing?: Promise<void>;
  private readonly closeHooks: Array<() => void> = [];
  private readonly watches: ResourceWatches;
  /** Why a backend's tools could not be listed (an upstream that is down), for `call` to report. */
  private readonly toolListErrors = new Map<string, unknown>();
  /** The client of one-shot commands and of callers that name none. */
  readonly localClient = new HostClient('in-process');

  private readonly files: FileRoots;

  private constructor(loaded: LoadedBackend[], options: RegistryOptions) {
    this.options = options;
    this.watches = new ResourceWatches(options.logger);
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.files = new FileRoots(options.files?.roots ?? loaded.flatMap((l) => l.paths ?? []), options.files?.cwd ?? process.cwd());
    this.hosts = loaded.map((l) => this.newHost(l));
  }

  private newHost(l: LoadedBackend): BackendHost {
    return new BackendHost(l, {
      logger: this.options.logger,
      shutdown: this.shutdown.signal,
      startMs: this.options.timeouts.startMs,
      serving: this.options.serving,
      files: this.files,
      onListChanged: (_plugin, kind) => this.listChanged(kind),
      onGauge: (plugin, name, help, read) => this.gaugeMap.set(`${plugin}\u0000${name}`, { plugin, name, help, read }),
    });
  }

  /**
   * Live reconfiguration (a reload of .mcprc): the backends named in `remove` leave the lists at
   * once and are stopped (their calls in progress end as at shutdown), those in `add` join, lazy as
   * at start-up; `roots` replaces the file roots of remote clients. Clients are then told that every
   * list changed. Clients and their sessions are untouched.
   */
  async reconfigure(change: { remove: string[]; add: LoadedBackend[]; roots?: readonly string[] }): Promise<void> {
    const leaving = this.hosts.filter((h) => change.remove.includes(h.name));
    for (const host of leaving) {
      this.hosts.splice(this.hosts.indexOf(host), 1);
      this.toolListErrors.delete(host.name);
      for (const [key, gauge] of this.gaugeMap) if (gauge.plugin === host.name) this.gaugeMap.delete(key);
    }
    const ms = clampTimeout(this.options.timeouts.shutdownMs);
    const stops = leaving.map((h) =>
      h.stop().catch((error: Error) => this.options.logger.warn(`${h.name}: stop failed: ${error?.message ?? error}`)),
    );
    if (!(await settledWithin(stops, ms))) this.options.logger.warn(`reload: a backend did not stop within ${ms} ms`);
    for (const l of change.add) this.hosts.push(this.newHost(l));
    if (change.roots) this.files.setRoots(change.roots);
    for (const kind of ['tools', 'resources', 'prompts'] as const) this.listChanged(kind);
  }

  /** Tells every listener that a list changed (a reload that changed what `tools/list` shows). */
  notifyListChanged(kind: ListKind): void {
    this.listChanged(kind);
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
    registry.snapshot = registry.build(true);
    await registry.snapshot;
    return registry;
  }

  host(plugin: string): BackendHost | undefined {
    return this.hosts.find((h) => h.name === plugin);
  }

  onListChanged(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Told of every finished tool call (metrics). */
  onCall(listener: (record: CallRecord) => void): () => void {
    this.callListeners.add(listener);
    return () => this.callListeners.delete(listener);
  }

  /** The gauges the backends published (ctx.gauge). */
  gauges(): BackendGauge[] {
    return [...this.gaugeMap.values()];
  }

  private listChanged(kind: ListKind): void {
    this.snapshot = undefined;
    for (const listener of this.listeners) listener(kind);
  }

  private current(): Promise<Snapshot> {
    this.snapshot ??= this.build(false);
    return this.snapshot;
  }

  private async build(strict: boolean): Promise<Snapshot> {
    const snap: Snapshot = { tools: new Map(), prompts: new Map(), resources: new Map(), templates: [] };
    const conflict = (what: string, name: string, a: string, b: string) => {
      const message = `${what} ${name} is published by both plugin ${a} and plugin ${b}`;
      if (strict) throw new RegistryError(message);
      this.options.logger.error(`${message}; keeping ${a}'s`);
    };
    const listings = await Promise.all(
      this.hosts.map(async (host) => {
        const safe = async <T>(key: 'tools' | 'prompts' | 'resources' | 'resourceTemplates'): Promise<T[]> => {
          try {
            const items = await host.listing<T>(key);
            if (key === 'tools') this.toolListErrors.delete(host.name);
            return items;
          } catch (error) {
            if (key === 'tools') this.toolListErrors.set(host.name, error);
            host.lastError = (error as Error).message;
            // A one-shot command reports it (as down, with this message) itself: said once, not twice.
            const log = this.options.serving ? this.options.logger.warn : this.options.logger.debug;
            log.call(this.options.logger, `${host.name}: cannot list ${key}: ${(error as Error).message}`);
            return [];
          }
        };
        return {
          host,
          tools: await safe<ToolDef>('tools'),
          prompts: await safe<PromptDef>('prompts'),
          resources: await safe<ResourceDef>('resources'),
          templates: await safe<ResourceTemplateDef>('resourceTemplates'),
        };
      }),
    );
    for (const { host, tools, prompts, resources, templates } of listings) {
      const plugin = host.name;
      const prefixed = host.loaded.section.prefix !== false;
      for (const def of tools) {
        const name = publicName(plugin, def.name, prefixed);
        const seen = snap.tools.get(name);
        if (seen) {
          conflict('tool', name, seen.plugin, plugin);
          continue;
        }
        snap.tools.set(name, {
          publicName: name,
          plugin,
          host,
          def,
          inputSchema: inputJsonSchema(def),
          outputSchema: def.output ? toJsonSchema(def.output, 'output') : undefined,
        });
      }
      for (const def of prompts) {
        const name = publicName(plugin, def.name, prefixed);
        const seen = snap.prompts.get(name);
        if (seen) {
          conflict('prompt', name, seen.plugin, plugin);
          continue;
        }
        snap.prompts.set(name, { publicName: name, plugin, host, def, arguments: promptArguments(def) });
      }
      for (const def of resources) {
        const seen = snap.resources.get(def.uri);
        if (seen) {
          conflict('resource', def.uri, seen.plugin, plugin);
          continue;
        }
        snap.resources.set(def.uri, { plugin, host, def });
      }
      for (const def of templates) snap.templates.push({ plugin, host, def });
    }
    return snap;
  }

  async tools(plugin?: string): Promise<PublishedTool[]> {
    const all = [...(await this.current()).tools.values()];
    return plugin ? all.filter((t) => t.plugin === plugin) : all;
  }

  async findTool(name: string): Promise<PublishedTool> {
    let tools = (await this.current()).tools;
    let tool = tools.get(name);
    // A client may call a mounted server's tool before that server answered its first listing (a
    // listing never waits for it while serving): wait for the backends the name could belong to,
    // within their start timeout, then look again, rather than answer "unknown tool".
    const pending = tool ? [] : this.hosts.filter((h) => name.startsWith(`${h.name}_`) && h.listsWhenStarted());
    if (pending.length) {
      const failures = await Promise.all(
        pending.map((h) =>
          h.ensureStarted().then(
            () => undefined,
            (error: unknown) => error,
          ),
        ),
      );
      this.snapshot = undefined;
      tools = (await this.current()).tools;
      tool = tools.get(name);
      // The server it belongs to could not be reached: say so, not "unknown tool".
      const failure = failures.find((f) => f !== undefined);
      if (!tool && failure !== undefined) throw failure;
    }
    if (!tool) {
      const hint = closest(name, tools.keys());
      throw new UnknownNameError('tool', name, [...tools.keys()], hint.length ? `; did you mean ${hint.join(', ')}?` : '');
    }
    return tool;
  }

  /** A tool by its plugin-local name, as `mcphost call <plugin> <tool>` takes it. */
  async findLocalTool(plugin: string, local: string): Promise<PublishedTool> {
    if (!this.host(plugin))
      throw new UnknownNameError(
        'plugin',
        plugin,
        this.hosts.map((h) => h.name),
      );
    const tools = await this.tools(plugin);
    const found = tools.find((t) => t.def.name === local || t.publicName === local);
    const listError = this.toolListErrors.get(plugin);
    if (!found && tools.length === 0 && listError !== undefined) {
      throw isToolError(listError)
        ? listError
        : new UnavailableError(`${plugin} is unavailable: ${(listError as Error)?.message ?? listError}`, { cause: listError });
    }
    if (!found) {
      const names = tools.map((t) => t.def.name);
      const hint = closest(local, names);
      throw new UnknownNameError(
        'tool',
        local,
        names,
        `${hint.length ? `; did you mean ${hint.join(', ')}?` : ''} (tools of ${plugin}: ${names.join(', ') || 'none'})`,
      );
    }
    return found;
  }

  /** Calls a tool. Every failure is an error result; only an unknown name throws. */
  async callTool(name: string, args: unknown, options: CallOptions = {}): Promise<CallOutcome> {
    return this.invoke(await this.findTool(name), args, options);
  }

  invoke(tool: PublishedTool, args: unknown, options: CallOptions = {}): Promise<CallOutcome> {
    const run = runTool(
      tool,
      args,
      { ...options, client: options.client ?? this.localClient },
      {
        shutdown: this.shutdown.signal,
        toolMs: this.options.timeouts.toolMs,
        logger: this.options.logger,
        limits: this.limits,
      },
    );
    this.inFlight.add(run);
    const started = performance.now();
    void run.then((outcome) => {
      this.inFlight.delete(run);
      if (this.callListeners.size === 0) return;
      const record = { tool: tool.publicName, plugin: tool.plugin, durationMs: performance.now() - started, outcome };
      for (const listener of this.callListeners) {
        try {
          listener(record);
        } catch (error) {
          this.options.logger.debug(`call listener failed: ${(error as Error).message}`);
        }
      }
    });
    return run;
  }

  async resources(plugin?: string): Promise<Array<ResourceListing & { plugin: string }>> {
    const snap = await this.current();
    const out: Array<ResourceListing & { plugin: string }> = [];
    for (const r of snap.resources.values()) {
      if (plugin && r.plugin !== plugin) continue;
      const { uri, name, title, description, mimeType } = r.def;
      out.push({ uri, name, title, description, mimeType, plugin: r.plugin });
    }
    for (const t of snap.templates) {
      if ((plugin && t.plugin !== plugin) || !t.def.list) continue;
      try {
        for (const item of await t.def.list(t.host.context)) out.push({ mimeType: t.def.mimeType, ...item, plugin: t.plugin });
      } catch (error) {
        this.options.logger.warn(`${t.plugin}: cannot list ${t.def.uriTemplate}: ${(error as Error).message}`);
      }
    }
    return out;
  }

  async resourceTemplates(plugin?: string): Promise<PublishedTemplate[]> {
    const all = (await this.current()).templates;
    return plugin ? all.filter((t) => t.plugin === plugin) : all;
  }

  /**
   * Reads a resource. An unknown URI throws UnknownNameError; a failing read throws its error, a
   * read past the tool timeout a TimeoutError, an answer above `limits.resultBytes` a ResultTooLargeError.
   */
  async readResource(uri: string, options: CallOptions = {}): Promise<{ contents: ResourceContents[] }> {
    const timeoutMs = options.timeoutMs ?? this.options.timeouts.toolMs;
    const client = options.client ?? this.localClient;
    const read = await withDeadline(`reading ${uri.slice(0, 200)}`, timeoutMs, [options.signal, this.shutdown.signal], (signal) =>
      this.readAnswer(uri, signal, client, options),
    );
    if (isInputRequired(read)) return read as never;
    const oversize = tooLargeResult(read, this.limits);
    if (oversize) throw new ResultTooLargeError(`resource ${uri.slice(0, 200)}: ${oversize}`);
    return read;
  }

  private async readAnswer(
    uri: string,
    signal: AbortSignal,
    client: HostClient,
    options: CallOptions,
  ): Promise<{ contents: ResourceContents[] }> {
    const snap = await this.current();
    const found = await route(uri, snap.resources, snap.templates);
    if (!found) throw new UnknownNameError('resource', uri, [...snap.resources.keys(), ...snap.templates.map((t) => t.def.uriTemplate)]);
    const { host, def } = found.target;
    await host.ensureStarted();
    const ctx = host.callContext(signal, () => undefined, client, options.channel, options.broker);
    const value =
      found.kind === 'resource' ? await found.target.def.read(uri, ctx) : await found.target.def.read(uri, found.variables, ctx);
    if (isInputRequired(value)) return value as never;
    return toReadContents(uri, def.mimeType, value);
  }

  /**
   * Subscribes `listener` to changes of `uri`. Throws UnknownNameError for a URI no backend serves
   * and NotWatchableError for one whose backend cannot watch it; resolves to the unsubscribe.
   */
  async watch(uri: string, listener: (uri: string) => void): Promise<() => void> {
    const snap = await this.current();
    const found = await route(uri, snap.resources, snap.templates);
    if (!found) throw new UnknownNameError('resource', uri, [...snap.resources.keys(), ...snap.templates.map((t) => t.def.uriTemplate)]);
    const subscribe = found.target.def.subscribe;
    if (!subscribe) throw new NotWatchableError(uri);
    await found.target.host.ensureStarted();
    return this.watches.add(uri, { subscribe, ctx: found.target.host.context }, listener);
  }

  async completeTemplate(uriTemplate: string, argument: string, value: string): Promise<string[]> {
    const t = (await this.current()).templates.find((x) => x.def.uriTemplate === uriTemplate);
    const complete = t?.def.complete?.[argument];
    if (!t || !complete) return [];
    const values = await withDeadline(`completing ${argument}`, this.options.timeouts.toolMs, [this.shutdown.signal], async () =>
      complete(value, t.host.context),
    );
    return values.slice(0, 100);
  }

  async prompts(plugin?: string): Promise<PublishedPrompt[]> {
    const all = [...(await this.current()).prompts.values()];
    return plugin ? all.filter((p) => p.plugin === plugin) : all;
  }

  async getPrompt(name: string, args: Record<string, string> | undefined, options: CallOptions = {}) {
    const prompt = (await this.current()).prompts.get(name);
    if (!prompt) throw new UnknownNameError('prompt', name, [...(await this.current()).prompts.keys()]);
    const tooLarge = argumentsTooLarge(args);
    if (tooLarge) throw new InvalidParamsError(`Invalid arguments for prompt ${name}: ${tooLarge}`);
    const answer = await withDeadline(
      `prompt ${name}`,
      options.timeoutMs ?? this.options.timeouts.toolMs,
      [options.signal, this.shutdown.signal],
      async (signal) => {
        await prompt.host.ensureStarted();
        return runPrompt(
          prompt,
          args ?? {},
          prompt.host.callContext(signal, () => undefined, options.client ?? this.localClient, options.channel, options.broker),
        );
      },
    );
    const oversize = tooLargeResult(answer, this.limits);
    if (oversize) throw new ResultTooLargeError(`prompt ${name}: ${oversize}`);
    return answer as PromptResult | InputRequiredResult;
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
  async checkBareNames(): Promise<void> {
    const bare = this.hosts.filter((h) => h.loaded.section.prefix === false);
    if (bare.length === 0) return;
    await Promise.allSettled(bare.map((h) => h.ensureStarted()));
    const strict = this.build(true);
    strict.catch(() => undefined);
    await strict;
    this.snapshot = strict;
  }

  /** Starts the backends marked `eager`; a failure is logged, not fatal. */
  async startEager(): Promise<void> {
    await Promise.allSettled(this.hosts.filter((h) => h.loaded.section.eager).map((h) => h.ensureStarted()));
  }

  /** Runs `fn` when the registry closes (before the backends stop). */
  onClose(fn: () => void): void {
    this.closeHooks.push(fn);
  }

  /** Aborts running calls, waits for them, then stops every backend. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const hook of this.closeHooks.splice(0)) hook();
      void this.watches.close();
      // Bounded by the shutdown deadline: a call that ignores its abort, or a stop() that never
      // resolves, is reported and left behind (the process exits and its exit hooks kill children).
      const ms = clampTimeout(this.options.timeouts.shutdownMs);
      const until = Date.now() + ms;
      const left = () => Math.max(0, until - Date.now());
      this.shutdown.abort(new ShutdownError());
      const calls = [...this.inFlight];
      if (!(await settledWithin(calls, left()))) this.options.logger.warn(`shutdown: ${calls.length} call(s) still running after ${ms} ms`);
      this.localClient.close(this.options.logger);
      const stops = this.hosts.map((h) =>
        h.stop().catch((error: Error) => this.options.logger.warn(`${h.name}: stop failed: ${error?.message ?? error}`)),
      );
      const done = new Set<number>();
      stops.forEach((p, i) => void p.then(() => done.add(i)));
      if (!(await settledWithin(stops, left()))) {
        const stuck = this.hosts.filter((_, i) => !done.has(i)).map((h) => h.name);
        this.options.logger.warn(`shutdown: ${stuck.join(', ')} did not stop within ${ms} ms`);
      }
    })();
    return this.closing;
  }
}

/** Whether every promise settled within `ms`. */
async function settledWithin(promises: Array<Promise<unknown>>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([Promise.allSettled(promises).then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
