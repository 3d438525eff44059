// The life of the active backends: made from the loaded plugins, started lazily (or eagerly),
// swapped by a reload, watched, and stopped within the shutdown deadline. Tells listeners when a
// list changes, and waits for a backend still starting when a tool name may be one of its own.
import type { ListKind, Logger } from '../backend/types.js';
import type { LoadedBackend } from '../loader/load.js';
import { BackendHost } from './backend-host.js';
import type { Catalog } from './catalog.js';
import type { HostClient } from './clients.js';
import type { Dispatch } from './dispatch.js';
import { ShutdownError, UnknownNameError } from './errors.js';
import type { FileRoots } from './files.js';
import { clampTimeout } from './limits.js';
import type { BackendGauge, PublishedTool } from './published.js';
import { NotWatchableError, ResourceWatches } from './watches.js';

export interface LifecycleParts {
  hosts: BackendHost[];
  catalog: Catalog;
  dispatch: Dispatch;
  files: FileRoots;
  localClient: HostClient;
  shutdown: AbortController;
  logger: Logger;
  timeouts: { startMs: number; shutdownMs: number; firstListMs?: number };
  serving?: boolean;
}

export class Lifecycle {
  private readonly listeners = new Set<(kind: ListKind) => void>();
  private readonly gaugeMap = new Map<string, BackendGauge>();
  private readonly closeHooks: Array<() => void> = [];
  /** Resource subscriptions, made at the first one (a one-shot command has none). */
  private watches?: ResourceWatches;
  private closing?: Promise<void>;

  constructor(
    private readonly parts: LifecycleParts,
    loaded: LoadedBackend[],
  ) {
    for (const l of loaded) parts.hosts.push(this.newHost(l));
  }

  private newHost(l: LoadedBackend): BackendHost {
    const { logger, shutdown, timeouts, serving, files } = this.parts;
    return new BackendHost(l, {
      logger,
      shutdown: shutdown.signal,
      startMs: timeouts.startMs,
      serving,
      listWaitMs: timeouts.firstListMs,
      files,
      onListChanged: (_plugin, kind) => this.listChanged(kind),
      onGauge: (plugin, name, help, read) => this.gaugeMap.set(`${plugin}\u0000${name}`, { plugin, name, help, read }),
    });
  }

  /** See Registry.reconfigure. */
  async reconfigure(change: { remove: string[]; add: LoadedBackend[]; roots?: readonly string[] }): Promise<void> {
    const { hosts, logger } = this.parts;
    const leaving = hosts.filter((h) => change.remove.includes(h.name));
    for (const host of leaving) {
      hosts.splice(hosts.indexOf(host), 1);
      this.parts.catalog.forget(host.name);
      for (const [key, gauge] of this.gaugeMap) if (gauge.plugin === host.name) this.gaugeMap.delete(key);
    }
    const ms = clampTimeout(this.parts.timeouts.shutdownMs);
    const stops = leaving.map((h) => h.stop().catch((error: Error) => logger.warn(`${h.name}: stop failed: ${error?.message ?? error}`)));
    if (!(await settledWithin(stops, ms))) logger.warn(`reload: a backend did not stop within ${ms} ms`);
    for (const l of change.add) hosts.push(this.newHost(l));
    if (change.roots) this.parts.files.setRoots(change.roots);
    for (const kind of ['tools', 'resources', 'prompts'] as const) this.listChanged(kind);
  }

  onListChanged(listener: (kind: ListKind) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  listChanged(kind: ListKind): void {
    this.parts.catalog.invalidate();
    for (const listener of this.listeners) listener(kind);
  }

  gauges(): BackendGauge[] {
    return [...this.gaugeMap.values()];
  }

  async findTool(name: string, client?: HostClient): Promise<PublishedTool> {
    const { catalog } = this.parts;
    const tool = await catalog.tool(name);
    if (tool) return tool;
    const local = await this.byLocalName(name, client);
    if (local) return local;
    // A client may call a mounted server's tool before that server answered its first listing (a
    // listing never waits for it while serving): wait for the backends the name could belong to,
    // within their start timeout, then look again, rather than answer "unknown tool".
    const pending = this.parts.hosts.filter((h) => name.startsWith(`${h.name}_`) && h.listsWhenStarted());
    if (pending.length) {
      const failures = await Promise.all(
        pending.map((h) =>
          h.ensureStarted().then(
            () => undefined,
            (error: unknown) => error,
          ),
        ),
      );
      catalog.invalidate();
      const started = await catalog.tool(name);
      if (started) return started;
      // The server it belongs to could not be reached: say so, not "unknown tool".
      const failure = failures.find((f) => f !== undefined);
      if (failure !== undefined) throw failure;
    }
    throw await catalog.unknownTool(name);
  }

  /**
   * A tool called by its backend's own name, as a view calls its server's tools (views-read.ts):
   * the one backend with such a tool, or of several, the one whose views this client read.
   */
  private async byLocalName(name: string, client: HostClient | undefined): Promise<PublishedTool | undefined> {
    const found = await this.parts.catalog.byLocalName(name);
    if (found.length <= 1) return found[0];
    const seen = this.parts.dispatch.views.of(client);
    const theirs = found.filter((t) => seen.includes(t.plugin));
    if (theirs.length === 1) return theirs[0];
    const names = found.map((t) => t.publicName);
    throw new UnknownNameError(
      'tool',
      name,
      names,
      `: ${names.join(', ')} are each a backend's ${JSON.stringify(name)}, and this client read the views of ${theirs.length ? 'several' : 'none'} of them; call one by its published name`,
    );
  }

  /** See Registry.watch. */
  async watch(uri: string, listener: (uri: string) => void): Promise<() => void> {
    const found = await this.parts.catalog.route(uri);
    const subscribe = found.target.def.subscribe;
    if (!subscribe) throw new NotWatchableError(uri);
    await found.target.host.ensureStarted();
    // A renamed view (ui-names.ts) is watched under the URI its backend published; listeners hear the new one.
    const asked = found.kind === 'resource' && found.target.uri === uri ? found.target.def.uri : uri;
    const watched: typeof subscribe = (_uri, changed, ctx) => subscribe(asked, changed, ctx);
    this.watches ??= new ResourceWatches(this.parts.logger);
    return this.watches.add(uri, { subscribe: watched, ctx: found.target.host.context }, listener);
  }

  /** See Registry.checkBareNames. */
  async checkBareNames(): Promise<void> {
    const bare = this.parts.hosts.filter((h) => h.loaded.section.prefix === false);
    if (bare.length === 0) return;
    await Promise.allSettled(bare.map((h) => h.ensureStarted()));
    await this.parts.catalog.rebuild(true);
  }

  async startEager(): Promise<void> {
    await Promise.allSettled(this.parts.hosts.filter((h) => h.loaded.section.eager).map((h) => h.ensureStarted()));
  }

  onClose(fn: () => void): void {
    this.closeHooks.push(fn);
  }

  /** Aborts running calls, waits for them, then stops every backend. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const { hosts, logger } = this.parts;
      for (const hook of this.closeHooks.splice(0)) hook();
      void this.watches?.close();
      // Bounded by the shutdown deadline: a call that ignores its abort, or a stop() that never
      // resolves, is reported and left behind (the process exits and its exit hooks kill children).
      const ms = clampTimeout(this.parts.timeouts.shutdownMs);
      const until = Date.now() + ms;
      const left = () => Math.max(0, until - Date.now());
      this.parts.shutdown.abort(new ShutdownError());
      const calls = this.parts.dispatch.running();
      if (!(await settledWithin(calls, left()))) logger.warn(`shutdown: ${calls.length} call(s) still running after ${ms} ms`);
      this.parts.localClient.close(logger);
      const stops = hosts.map((h) => h.stop().catch((error: Error) => logger.warn(`${h.name}: stop failed: ${error?.message ?? error}`)));
      const done = new Set<number>();
      stops.forEach((p, i) => void p.then(() => done.add(i)));
      if (!(await settledWithin(stops, left()))) {
        const stuck = hosts.filter((_, i) => !done.has(i)).map((h) => h.name);
        logger.warn(`shutdown: ${stuck.join(', ')} did not stop within ${ms} ms`);
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
