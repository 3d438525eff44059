// Request/response over newline-delimited JSON, correlated by `id`: the framing shared by the
// ImHex JSON-RPC client (TCP), the PoB bridge (a child's stdio) and PoB's GUI API (TCP).

export class LineBuffer {
  private pending = '';
  /** Feeds a chunk and returns the complete lines it finished (without the newline, `\r` dropped). */
  push(chunk: string): string[] {
    this.pending += chunk;
    const parts = this.pending.split('\n');
    this.pending = parts.pop() ?? '';
    return parts.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)).filter((l) => l.trim() !== '');
  }
  get size(): number {
    return this.pending.length;
  }
}

export class PeerError extends Error {
  readonly code: 'TIMEOUT' | 'CLOSED' | 'ABORTED' | 'BAD_MESSAGE' | 'TOO_LARGE';
  constructor(code: PeerError['code'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PeerError';
    this.code = code;
  }
}

type Id = string | number;

interface Waiter {
  resolve(message: Record<string, unknown>): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
  cleanup(): void;
}

export interface JsonLinesPeerOptions {
  /** Writes one line (the newline is added here). */
  write(line: string): void;
  /** A line that is not JSON, or JSON without a known id: reported, never thrown. */
  onStray?(line: string, reason: string): void;
  /** Largest line accepted, in characters (default 64 MiB). */
  maxLineLength?: number;
}

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Correlates responses to requests by `id`; the transport feeds it text and closes it. */
export class JsonLinesPeer {
  private readonly waiters = new Map<Id, Waiter>();
  private readonly buffer = new LineBuffer();
  private readonly options: JsonLinesPeerOptions;
  private nextId = 1;
  private closedWith?: Error;

  constructor(options: JsonLinesPeerOptions) {
    this.options = options;
  }

  get inFlight(): number {
    return this.waiters.size;
  }

  /** True once `close` ran (or a line grew past `maxLineLength`): requests fail until `reset`. */
  get closed(): boolean {
    return this.closedWith !== undefined;
  }

  newId(): number {
    return this.nextId++;
  }

  /** Sends `message` (which must carry an id) and resolves with the message answering it. */
  request(message: Record<string, unknown> & { id: Id }, options: RequestOptions = {}): Promise<Record<string, unknown>> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const { id } = message;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiters.delete(id);
        waiter.cleanup();
        reject(new PeerError('ABORTED', `request ${id} aborted`, { cause: options.signal?.reason }));
      };
      const waiter: Waiter = {
        resolve,
        reject,
        cleanup: () => {
          clearTimeout(waiter.timer);
          options.signal?.removeEventListener('abort', onAbort);
        },
      };
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.timeoutMs !== undefined) {
        waiter.timer = setTimeout(() => {
          this.waiters.delete(id);
          waiter.cleanup();
          reject(new PeerError('TIMEOUT', `no answer within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
      }
      this.waiters.set(id, waiter);
      try {
        this.options.write(`${JSON.stringify(message)}\n`);
      } catch (error) {
        this.waiters.delete(id);
        waiter.cleanup();
        reject(new PeerError('CLOSED', `cannot write: ${(error as Error).message}`, { cause: error }));
      }
    });
  }

  /** Feeds received text. */
  receive(chunk: string): void {
    const max = this.options.maxLineLength ?? 64 * 1024 * 1024;
    for (const line of this.buffer.push(chunk)) this.dispatch(line);
    if (this.buffer.size > max) this.close(new PeerError('TOO_LARGE', `a line exceeded ${max} characters`));
  }

  private dispatch(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.options.onStray?.(line, 'not JSON');
      return;
    }
    const id = (message as { id?: Id } | null)?.id;
    const waiter = id === undefined || id === null ? undefined : this.waiters.get(id);
    if (!waiter || typeof message !== 'object') {
      this.options.onStray?.(line, id === undefined || id === null ? 'no id' : `unknown id ${id}`);
      return;
    }
    this.waiters.delete(id!);
    waiter.cleanup();
    waiter.resolve(message as Record<string, unknown>);
  }

  /** Fails every pending request with `error`; later requests fail at once. */
  close(error: Error = new PeerError('CLOSED', 'connection closed')): void {
    this.closedWith = error;
    for (const [id, waiter] of this.waiters) {
      this.waiters.delete(id);
      waiter.cleanup();
      waiter.reject(error);
    }
  }

  /** Fails pending requests but keeps accepting new ones (after a reconnect). */
  reset(error: Error): void {
    this.close(error);
    this.closedWith = undefined;
    this.buffer.push('\n');
  }
}
