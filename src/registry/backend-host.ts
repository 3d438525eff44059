// One loaded backend inside the registry: its context, lazy start (retried after a failure), its
// listings, health and stop.
import type {
  Backend,
  BackendContext,
  CallContext,
  HealthReport,
  ListKind,
  Logger,
  ProgressUpdate,
  TraceContext,
} from '../backend/types.js';
import { withheldText } from '../backend/approval.js';
import { UnavailableError, isToolError } from '../backend/errors.js';
import type { LoadedBackend } from '../loader/load.js';
import { userCacheDir } from '../config/cache-dir.js';
import path from 'node:path';
import type { HostClient } from './clients.js';
import { asksFor, type ClientChannel, type InputBroker } from './asks.js';
import type { FileRoots } from './files.js';
import { TimeoutError } from './errors.js';
import { clampTimeout } from './limits.js';

export type BackendState = 'idle' | 'starting' | 'running' | 'failed' | 'stopped';

export interface BackendHostOptions {
  logger: Logger;
  shutdown: AbortSignal;
  startMs: number;
  /** Listings answer at once and notify later (`mcphost serve`); see BackendContext.serving. */
  serving?: boolean;
  /** How long a client's listing waits for what the backend said is pending (ctx.listingPending). */
  listWaitMs?: number;
  /** Where clients' file arguments may point (ctx.files). */
  files: FileRoots;
  onListChanged(plugin: string, kind: ListKind): void;
  /** A backend published a gauge (ctx.gauge). */
  onGauge?(plugin: string, name: string, help: string, read: () => number | undefined): void;
}

type ListingKey = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

export class BackendHost {
  readonly name: string;
  readonly backend: Backend;
  readonly loaded: LoadedBackend;
  readonly context: BackendContext;
  state: BackendState = 'idle';
  lastError?: string;
  /** Set once the backend ran any of its code that may hold resources (start or a dynamic listing). */
  private touched = false;
  private starting?: Promise<void>;
  private readonly options: BackendHostOptions;
  /** Listings the backend said are pending (ctx.listingPending), each with when waiting for it ends. */
  private readonly pendingLists = new Set<{ settled: Promise<unknown>; until: number }>();

  constructor(loaded: LoadedBackend, options: BackendHostOptions) {
    this.loaded = loaded;
    this.backend = loaded.backend;
    this.name = loaded.name;
    this.options = options;
    this.context = {
      config: loaded.config,
      configDir: loaded.configDir ?? process.cwd(),
      cacheDir: loaded.cacheDir ?? path.join(userCacheDir(process.env), loaded.name),
      logger: options.logger.child(this.name),
      signal: options.shutdown,
      notifyListChanged: (kind) => options.onListChanged(this.name, kind),
      serving: options.serving === true,
      ...(options.serving &&
        options.listWaitMs && {
          listingPending: (settled: Promise<unknown>) => {
            const entry = { settled, until: Date.now() + options.listWaitMs! };
            this.pendingLists.add(entry);
            void settled.then(
              () => this.pendingLists.delete(entry),
              () => this.pendingLists.delete(entry),
            );
          },
        }),
      gauge: (name, help, read) => options.onGauge?.(this.name, name, help, read),
      withheld: loaded.withheld ?? [],
    };
    // Serving, said once at set-up (the features that need these say it again when used); a
    // one-shot command prints the error it gets, so a warning would say it twice.
    if (loaded.withheld?.length) this.context.logger[options.serving ? 'warn' : 'debug'](withheldText(loaded.withheld));
  }

  /** Resolves when every pending listing has settled or passed its wait (never rejects). */
  async listingsSettled(): Promise<void> {
    await Promise.all(
      [...this.pendingLists].map(async ({ settled, until }) => {
        let timer: NodeJS.Timeout | undefined;
        const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, until - Date.now()))));
        await Promise.race([settled.catch(() => undefined), bound]).finally(() => clearTimeout(timer));
      }),
    );
  }

  /** Starts the backend once; after a failure the next call tries again. */
  ensureStarted(): Promise<void> {
    if (this.state === 'running') return Promise.resolve();
    this.touched = true;
    if (this.state === 'stopped') return Promise.reject(new UnavailableError(`${this.name} is stopped`));
    if (!this.backend.start) {
      this.state = 'running';
      return Promise.resolve();
    }
    this.starting ??= this.runStart();
    return this.starting;
  }

  private async runStart(): Promise<void> {
    this.state = 'starting';
    const ms = clampTimeout(this.options.startMs);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(() => this.backend.start!(this.context)),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new TimeoutError(`starting ${this.name}`, ms)), ms);
        }),
      ]);
      this.state = 'running';
      this.lastError = undefined;
    } catch (error) {
      this.state = 'failed';
      this.lastError = (error as Error)?.message ?? String(error);
      // Serving, this is the host's only word of it (the error goes to the client); a one-shot
      // command prints the error it gets, so the log would say it a second time.
      if (this.options.serving) this.context.logger.warn(`failed to start: ${this.lastError}`);
      else this.context.logger.debug(`failed to start: ${this.lastError}`);
      throw isToolError(error) ? error : new UnavailableError(`${this.name} is unavailable: ${this.lastError}`, { cause: error });
    } finally {
      clearTimeout(timer);
      this.starting = undefined;
    }
  }

  callContext(
    signal: AbortSignal,
    progress: (update: ProgressUpdate) => void,
    client: HostClient,
    channel?: ClientChannel,
    broker?: InputBroker,
    trace?: TraceContext,
  ): CallContext {
    // `client` and `files` are made when a handler first reads them: most handlers never do, and in
    // the profile of a relayed call building both cost as much as runTool's own code. The getters
    // are declared first and the rest assigned: an object literal mixing spreads and getters takes
    // V8's slow path (docs/performance.md has what each cost).
    let scoped: CallContext['client'] | undefined;
    let files: CallContext['files'] | undefined;
    const roots = this.options.files;
    const name = this.name;
    const ctx = {
      get client() {
        return (scoped ??= client.scoped(name, channel?.capabilities));
      },
      get files() {
        return (files ??= roots.access(client));
      },
    } as CallContext;
    Object.assign(ctx, this.context, asksFor(channel, broker, signal));
    ctx.signal = signal;
    ctx.progress = progress;
    if (trace) ctx.trace = trace;
    if (channel?.input) ctx.input = channel.input;
    return ctx;
  }

  /** Whether starting may publish tools the last listing lacked (a dynamic listing, not started yet). */
  listsWhenStarted(): boolean {
    return typeof this.backend.tools === 'function' && (this.state === 'idle' || this.state === 'starting');
  }

  async listing<T>(key: ListingKey): Promise<T[]> {
    const value = this.backend[key] as T[] | ((ctx: BackendContext) => T[] | Promise<T[]>) | undefined;
    if (value === undefined) return [];
    if (Array.isArray(value)) return value;
    this.touched = true;
    return (await value.call(this.backend, this.context)) ?? [];
  }

  async health(timeoutMs = 5_000): Promise<HealthReport & { state: BackendState }> {
    const state = this.state;
    if (!this.backend.health) {
      return state === 'failed'
        ? { ok: false, state, message: this.lastError }
        : { ok: true, state, message: state === 'running' ? 'running (no health check)' : 'no health check (it starts on first use)' };
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const report = await Promise.race([
        Promise.resolve().then(() => this.backend.health!(this.context)),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new TimeoutError('health check', timeoutMs)), timeoutMs);
        }),
      ]);
      return { ...report, state };
    } catch (error) {
      return { ok: false, state, message: `health check failed: ${(error as Error).message}` };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops a backend that ran; safe to call twice. */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    if (this.starting) await this.starting.catch(() => undefined);
    if (this.touched && this.backend.stop) await this.backend.stop(this.context);
  }
}
