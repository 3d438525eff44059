// A supervised MCP client for one upstream server, shared by mounted `servers` and the plugins that
// front a program's own MCP server (unreal, exile). It connects on first use; speaks Streamable HTTP
// and falls back to the older HTTP+SSE transport; runs a stdio server as a child process and, after
// the child exits, restarts it on the next call with backoff. Every failure to reach the server is
// an UnavailableError whose message says what is down and why; an answer from a running server
// that is an error (HTTP 4xx/5xx, JSON-RPC error) is a ToolError saying what it answered.
import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type Client,
} from '@modelcontextprotocol/client';
import { ToolError, UnavailableError } from '../../backend/errors.js';
import { ChildProcessTransport } from './stdio-child.js';
import { DeadlineError, openUpstream, type Live } from './connect.js';
import { describeError, httpAnswer, notProcessed } from './errors.js';
import { AskRouter } from './asks.js';
import { NotWatchableError } from '../../backend/errors.js';
import type { UpstreamAuth, UpstreamOptions, UpstreamState, UpstreamStatus, UpstreamTarget } from './types.js';

export { describeError };
export type { UpstreamAuth, UpstreamOptions, UpstreamState, UpstreamStatus, UpstreamTarget };

/** After a connect timed out, requests within this long get its error instead of another attempt. */
const RETRY_AFTER_TIMEOUT_MS = 1_000;

export class UpstreamClient {
  readonly options: UpstreamOptions;
  private live?: Live;
  private pending?: Promise<Live>;
  private _state: UpstreamState = 'idle';
  private lastError?: string;
  private connectedAt?: number;
  private everConnected = false;
  private failures = 0;
  private nextAttemptAt = 0;
  private restarts = 0;
  private lastPid?: number;
  private watchTimer?: NodeJS.Timeout;
  private watchUp?: () => void;
  /** Aborted by close(): cuts a handshake in progress short. */
  private readonly closing = new AbortController();
  /** Transports of failed handshakes still shutting down (a child's grace period). */
  private readonly cleanups = new Set<Promise<unknown>>();
  private connectStartedAt?: number;
  private timedOut?: { at: number; error: UnavailableError };

  /** The calls in flight, to which the server's own requests are relayed (see asks.ts). */
  readonly asks = new AskRouter(() => this.label);

  /** Who waits for updates of each subscribed resource. */
  private readonly watchers = new Map<string, Set<() => void>>();
  /** How each subscribed resource's updates are stopped. */
  private readonly unsubscribes = new Map<string, () => Promise<unknown>>();

  constructor(options: UpstreamOptions) {
    this.options = options;
  }

  /**
   * Subscribes to a resource of the server for `changed` (resources/subscribe in the 2025 era; a
   * `subscriptions/listen` stream naming it in the 2026 era); one subscription per URI however many
   * wait. Throws NotWatchableError when the server does not offer subscriptions. A subscription does
   * not survive a reconnect (the server forgot it): the watcher is then silent.
   */
  async watchResource(uri: string, changed: () => void): Promise<() => Promise<void>> {
    const client = await this.connect();
    if (!client.getServerCapabilities()?.resources?.subscribe) throw new NotWatchableError(uri);
    let set = this.watchers.get(uri);
    if (!set) {
      set = new Set();
      this.watchers.set(uri, set);
      try {
        this.unsubscribes.set(uri, await this.request((c) => this.subscribe(c, uri)));
      } catch (error) {
        this.watchers.delete(uri);
        throw error;
      }
    }
    set.add(changed);
    return async () => {
      const current = this.watchers.get(uri);
      if (!current?.delete(changed) || current.size > 0) return;
      this.watchers.delete(uri);
      const unsubscribe = this.unsubscribes.get(uri);
      this.unsubscribes.delete(uri);
      if (this.live) await unsubscribe?.().catch(() => undefined);
    };
  }

  /** Starts the server's updates of `uri`; returns how to stop them. */
  private async subscribe(client: Client, uri: string): Promise<() => Promise<unknown>> {
    if (client.getProtocolEra() === 'modern') {
      const subscription = await client.listen({ resourceSubscriptions: [uri] }, this.listOptions());
      return () => subscription.close();
    }
    await client.subscribeResource({ uri }, this.listOptions());
    return () => this.request((c) => c.unsubscribeResource({ uri }, this.listOptions()));
  }

  get state(): UpstreamState {
    return this._state;
  }

  /** The protocol generation of the live connection (`modern`: 2026-07-28); undefined while there is none. */
  get era(): 'legacy' | 'modern' | undefined {
    const era = this.live?.client.getProtocolEra();
    return era === undefined ? undefined : era === 'modern' ? 'modern' : 'legacy';
  }

  /** The era of the connection, connecting first when there is none. */
  async connectedEra(): Promise<'legacy' | 'modern'> {
    return this.era ?? ((await this.connect()).getProtocolEra() === 'modern' ? 'modern' : 'legacy');
  }

  /** How errors name the server: "upstream <name>" unless the options say otherwise. */
  get label(): string {
    return this.options.label ?? `upstream ${this.options.name}`;
  }

  get targetText(): string {
    const t = this.options.target;
    return t.kind === 'http' ? t.url : [t.command, ...(t.args ?? [])].join(' ');
  }

  status(): UpstreamStatus {
    const live = this.live;
    const info = live?.client.getServerVersion();
    const retryInMs =
      this._state === 'down' && this.options.target.kind === 'stdio' ? Math.max(0, this.nextAttemptAt - Date.now()) : undefined;
    return {
      name: this.options.name,
      transport: this.options.target.kind,
      target: this.targetText,
      state: this._state,
      ...(live && { via: live.via }),
      ...(this.lastError !== undefined && { lastError: this.lastError }),
      ...(this.lastPid !== undefined && this.options.target.kind === 'stdio' && { pid: this.lastPid }),
      restarts: this.restarts,
      ...(retryInMs !== undefined && { retryInMs }),
      ...(info && { server: { name: info.name, version: info.version } }),
      ...(live && { protocolVersion: live.client.getNegotiatedProtocolVersion?.() }),
    };
  }

  /** The error callers get while the server is down. */
  unavailable(reason: string, cause?: unknown): UnavailableError {
    const message = this.options.describeDown?.(reason, cause) ?? `upstream ${this.options.name} unavailable: ${reason}`;
    return new UnavailableError(message, { cause, data: { upstream: this.options.name, reason } });
  }

  /** The connected client, connecting (or restarting) first when needed. */
  async connect(): Promise<Client> {
    if (this._state === 'closed') throw this.unavailable('mcphost is shutting down');
    if (this.live) return this.live.client;
    if (!this.pending) {
      const wait = this.nextAttemptAt - Date.now();
      if (this._state === 'down' && wait > 0) {
        throw this.unavailable(`${this.lastError}; next restart attempt in ${Math.ceil(wait / 1000)} s`);
      }
      // A server that just let a whole connect timeout pass is not asked again at once (the
      // listings and the start of one command would otherwise wait out the timeout each).
      if (this._state === 'down' && this.timedOut && Date.now() - this.timedOut.at < RETRY_AFTER_TIMEOUT_MS) throw this.timedOut.error;
      this.pending = this.open().finally(() => (this.pending = undefined));
    }
    return (await this.pending).client;
  }

  private async open(): Promise<Live> {
    this._state = 'connecting';
    this.connectStartedAt = Date.now();
    let live: Live;
    try {
      live = await openUpstream({
        options: this.options,
        deadline: this.connectStartedAt + (this.options.connectTimeoutMs ?? 30_000),
        signal: this.closing.signal,
        cleanup: (closing) => {
          this.cleanups.add(closing);
          void closing.finally(() => this.cleanups.delete(closing));
        },
        onListChanged: (kind) => this.options.onListChanged?.(kind),
        ...(this.options.relayAsks !== false && { asks: this.asks }),
        onResourceUpdated: (uri) => {
          for (const changed of [...(this.watchers.get(uri) ?? [])]) changed();
        },
      });
    } catch (error) {
      if ((this._state as UpstreamState) === 'closed') throw this.unavailable('mcphost is shutting down', error);
      const reason = describeError(error, this.options.target);
      this.markDown(reason);
      const failure = this.unavailable(reason, error);
      this.timedOut = error instanceof DeadlineError ? { at: Date.now(), error: failure } : undefined;
      throw failure;
    } finally {
      this.connectStartedAt = undefined;
    }
    if ((this._state as UpstreamState) === 'closed') {
      await live.client.close().catch(() => undefined);
      throw this.unavailable('mcphost is shutting down');
    }
    this.live = live;
    this._state = 'connected';
    this.lastError = undefined;
    this.timedOut = undefined;
    this.connectedAt = Date.now();
    live.client.onclose = () => this.lost(live);
    live.client.onerror = (error) => this.options.logger.debug(`transport: ${error.message}`);
    if (live.transport instanceof ChildProcessTransport) this.lastPid = live.transport.pid;
    this.options.logger.debug(`connected to ${this.targetText} (${live.via})`);
    if (this.everConnected) {
      this.restarts++;
      // A restarted server may serve different lists.
      for (const kind of ['tools', 'resources', 'prompts'] as const) this.options.onListChanged?.(kind);
    }
    this.everConnected = true;
    // Connected by a call or a health check while a background watch waited: it is up now.
    if (this.watchTimer) {
      clearTimeout(this.watchTimer);
      this.watchTimer = undefined;
      this.watchUp?.();
    }
    return live;
  }

  /** Milliseconds since the handshake in progress started (undefined when none is). */
  connectingForMs(): number | undefined {
    return this.connectStartedAt === undefined ? undefined : Date.now() - this.connectStartedAt;
  }

  /** The connection ended under us (a child exited, a stream closed). */
  private lost(live: Live): void {
    if (this.live !== live) return;
    this.live = undefined;
    if (this._state === 'closed') return;
    const reason = live.transport instanceof ChildProcessTransport ? live.transport.describeExit() : 'the connection closed';
    this.options.logger.warn(`${this.targetText}: ${reason}`);
    this.markDown(reason);
    if (this.options.keepAlive) this.watch(() => undefined);
  }

  private markDown(reason: string): void {
    this._state = 'down';
    this.lastError = reason;
    if (this.options.target.kind !== 'stdio') return;
    const { initialMs = 1_000, maxMs = 30_000, resetAfterMs = 60_000 } = this.options.backoff ?? {};
    const healthy = this.connectedAt !== undefined && Date.now() - this.connectedAt >= resetAfterMs;
    this.failures = healthy ? 1 : this.failures + 1;
    this.connectedAt = undefined;
    this.nextAttemptAt = Date.now() + Math.min(initialMs * 2 ** (this.failures - 1), maxMs);
  }

  /** Drops a live HTTP connection after a transport failure so the next call re-initialises. */
  private drop(live: Live, reason: string): void {
    if (this.live !== live) return;
    this.live = undefined;
    this.markDown(reason);
    void live.client.close().catch(() => undefined);
  }

  /**
   * Runs one request. A JSON-RPC error or an HTTP error status from the running server becomes a
   * ToolError saying what it answered; a transport failure an UnavailableError. Over HTTP a request
   * the server never processed (the connection was refused, or the session expired because the
   * server restarted) is retried once on a fresh connection.
   */
  async request<T>(run: (client: Client) => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      // A live connection is used at once (connect() would say the same, a few promise hops later).
      const client = this.live?.client ?? (await this.connect());
      const live = this.live;
      if (!live) {
        // Lost again between connecting and sending.
        if (attempt > 0) throw this.unavailable(this.lastError ?? 'the connection closed');
        continue;
      }
      try {
        return await run(client);
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        if (error instanceof ProtocolError) {
          throw new ToolError(`${this.label} answered error ${error.code}: ${error.message}`, {
            code: error.code,
            data: error.data,
            cause: error,
          });
        }
        if (error instanceof SdkError && error.code === 'INVALID_RESULT') {
          throw new ToolError(`${this.label} sent an invalid result: ${error.message}`, { code: 'INVALID_RESULT', cause: error });
        }
        if (error instanceof SdkError && error.code === 'REQUEST_TIMEOUT') {
          throw new ToolError(`${this.label} did not answer: ${error.message}`, { code: 'TIMEOUT', cause: error });
        }
        const target = this.options.target;
        if (
          error instanceof SdkHttpError &&
          error.code === SdkErrorCode.ClientHttpAuthentication &&
          target.kind === 'http' &&
          target.auth
        ) {
          // Its credentials were refused even after renewing them: down until the user signs in again.
          const reason = target.auth.refused();
          this.drop(live, reason);
          throw this.unavailable(reason, error);
        }
        if (error instanceof SdkHttpError && !notProcessed(error)) {
          throw new ToolError(`${this.label} answered ${httpAnswer(error)}`, {
            code: 'HTTP_ERROR',
            data: { status: error.status },
            cause: error,
          });
        }
        if (live.transport instanceof ChildProcessTransport) {
          // The child died (or stopped reading): `lost` has the reason, or will on exit.
          throw this.unavailable(live.transport.exit ? live.transport.describeExit() : describeError(error, this.options.target), error);
        }
        const reason = describeError(error, this.options.target);
        this.drop(live, reason);
        if (attempt > 0 || !notProcessed(error)) throw this.unavailable(reason, error);
        this.options.logger.debug(`${reason}; re-initialising`);
      }
    }
  }

  /** Options for requests made for the host itself (listings): bounded by `requestTimeoutMs`. */
  listOptions(): { timeout: number } {
    return { timeout: this.options.requestTimeoutMs ?? 30_000 };
  }

  /**
   * Checks a live connection with `ping` (an HTTP server may have gone away since the last call),
   * connecting first when there is none. Resolves either way: true when the server answered;
   * `status()` then tells the state.
   */
  async probe(pingMs = 5_000): Promise<boolean> {
    try {
      if (this.live && this.options.target.kind === 'http') await this.request((c) => c.ping({ timeout: pingMs }));
      else await this.connect();
      return true;
    } catch {
      return false; // the state and lastError say why
    }
  }

  /** While down, keeps trying to connect in the background (same backoff); `onUp` runs once it is up. */
  watch(onUp: () => void): void {
    if (this.watchTimer || this._state === 'closed' || this.live) return;
    this.watchUp = onUp;
    let delayMs = this.options.backoff?.initialMs ?? 1_000;
    const tick = () => {
      this.watchTimer = undefined;
      if (this._state === 'closed') return;
      if (this.live) return onUp();
      this.connect().then(onUp, () => {
        delayMs = Math.min(delayMs * 2, this.options.backoff?.maxMs ?? 30_000);
        this.watchTimer = setTimeout(tick, Math.max(delayMs, this.nextAttemptAt - Date.now())).unref();
      });
    };
    this.watchTimer = setTimeout(tick, Math.max(delayMs, this.nextAttemptAt - Date.now())).unref();
  }

  /** Closes the connection and stops a child process (group), a handshake in progress included. Idempotent. */
  async close(): Promise<void> {
    if (this._state === 'closed') return;
    this._state = 'closed';
    clearTimeout(this.watchTimer);
    this.closing.abort();
    const pending = this.pending?.catch(() => undefined);
    const live = this.live;
    this.live = undefined;
    if (live) await closeLive(live);
    const late = await pending;
    if (late && late !== live) await closeLive(late);
    await Promise.allSettled([...this.cleanups]);
  }
}

/** Ends an HTTP session with DELETE first (the server then stops work still running for us), then closes. */
async function closeLive(live: Live): Promise<void> {
  if (live.transport instanceof StreamableHTTPClientTransport && live.transport.sessionId) {
    const ended = live.transport.terminateSession().catch(() => undefined);
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  }
  await live.client.close().catch(() => undefined);
}
