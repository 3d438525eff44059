// The clients of one host: each connection (stdio, a 2025-era HTTP session, a 2026-era request, a
// one-shot command) gets a HostClient whose per-backend state lives and dies with it.
import { randomUUID } from 'node:crypto';
import type { ClientCapabilities, ClientInfo, ClientTransport, Logger } from '../backend/types.js';
import type { ClientAccess } from './access.js';
import { ANONYMOUS, callerKey, type Identity } from './identity.js';

interface Disposable {
  dispose(): unknown;
}

function isDisposable(value: unknown): value is Disposable {
  return typeof value === 'object' && value !== null && typeof (value as Disposable).dispose === 'function';
}

/** One client of the host. `scoped(plugin)` is what a backend of that plugin sees as `ctx.client`. */
export class HostClient {
  readonly id: string;
  readonly transport: ClientTransport;
  readonly remote: boolean;
  /** Who this client is, as its first request proved it (src/server/auth/identify.ts); anonymous over stdio. */
  readonly identity: Identity;
  /** What its calls are held to, when it is a named client (access.ts). */
  readonly access?: ClientAccess;
  /** The protocol era it speaks, once known (the audit trail records it). */
  era?: 'legacy' | 'modern';
  /** Its 2025-era HTTP session's id, once the session is open. */
  session?: string;
  private readonly values = new Map<string, unknown>();
  private closed = false;
  private holds = 0;
  private closeWanted = false;

  constructor(
    transport: ClientTransport,
    options: { remote?: boolean; id?: string; identity?: Identity; access?: ClientAccess; era?: 'legacy' | 'modern' } = {},
  ) {
    this.era = options.era;
    this.transport = transport;
    this.identity = options.identity ?? ANONYMOUS;
    this.access = options.access;
    this.remote = options.remote ?? transport === 'http';
    this.id = options.id ?? `${transport}-${randomUUID()}`;
  }

  /** The view one backend gets: its keys cannot meet another backend's. */
  /** The fairness key (ClientInfo.caller): the caller over HTTP, the connection otherwise. */
  get caller(): string {
    return this.remote ? callerKey(this.identity) : this.id;
  }

  scoped(plugin: string, capabilities: ClientCapabilities = {}): ClientInfo {
    return {
      id: this.id,
      caller: this.caller,
      transport: this.transport,
      remote: this.remote,
      capabilities,
      state: <T>(key: string, create: () => T): T => this.state(`${plugin}\u0000${key}`, create),
    };
  }

  /**
   * Keeps the client's values past the end of its connection (a task or a paused call still runs
   * for it); the returned function lets go, and the last to let go of a closed client closes it.
   */
  hold(logger?: Logger): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.holds === 0 && this.closeWanted) this.close(logger);
    };
  }

  private state<T>(key: string, create: () => T): T {
    if (this.values.has(key)) return this.values.get(key) as T;
    const value = create();
    // A call that ends after its client went still gets a value, but nothing keeps it.
    if (!this.closed) this.values.set(key, value);
    return value;
  }

  /** Forgets every value, telling those that hold something (`dispose()`). Safe to call twice. */
  close(logger?: Logger): void {
    if (this.holds > 0) {
      this.closeWanted = true;
      return;
    }
    this.closed = true;
    const values = [...this.values.values()];
    this.values.clear();
    for (const value of values) {
      if (!isDisposable(value)) continue;
      try {
        void Promise.resolve(value.dispose()).catch((error: Error) => logger?.debug(`client ${this.id}: dispose failed: ${error.message}`));
      } catch (error) {
        logger?.debug(`client ${this.id}: dispose failed: ${(error as Error).message}`);
      }
    }
  }
}
