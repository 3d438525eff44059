// Request/response over newline-delimited JSON, correlated by `id`: the framing shared by the
// ImHex JSON-RPC client (TCP), the PoB bridge (a child's stdio) and PoB's GUI API (TCP). Servers
// that echo no id and answer in request order (the pob-api fork of Path of Building) are matched
// first in, first out.

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
  /** Given up on (timeout, abort) but kept in line: its late answer must not settle the next request. */
  abandoned?: boolean;
}

export interface JsonLinesPeerOptions {
  /** Writes one line (the newline is added here). */
  write(line: string): void;
  /** A line that is not JSON, or JSON without a known id: reported, never thrown. */
  onStray?(line: string, reason: string): void;
  /** Largest line accepted, in characters (default 64 MiB). */
  maxLineLength?: number;
  /**
   * The server answers in request order and may echo no id: an answer without an id settles the
   * oldest pending request. A request given up on (timeout, abort) keeps its place in line, so its
   * late answer is dropped rather than taken for the next one's. Answers with a known id still match by id.
   */
  fifo?: boolean;
  /** Judges the first line received: true keeps it as `banner` (a greeting before any answer), not an answer. */
  isBanner?(message: Record<string, unknown>): boolean;
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
  private linesSeen = 0;
  /** The greeting the server sent first, when `isBanner` recognised one. */
  banner?: Record<string, unknown>;

  constructor(options: JsonLinesPeerOptions) {
    this.options = options;
  }

  /** Requests waiting for an answer (in `fifo` mode, also those given up on whose answer is still due). */
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
      const giveUp = (error: PeerError) => {
        if (this.options.fifo) waiter.abandoned = true;
        else this.waiters.delete(id);
        waiter.cleanup();
        reject(error);
      };
      const onAbort = () => giveUp(new PeerError('ABORTED', `request ${id} aborted`, { cause: options.signal?.reason }));
      const waiter: Waiter = {
        resolve,
        reject,
        cleanup: () => {
          clearTimeout(waiter.timer);
          options.signal?.removeEventListener('abort', onAbort);
        },
      };
      if (options.signal?.aborted) return reject(new PeerError('ABORTED', `request ${id} aborted`, { cause: options.signal.reason }));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.timeoutMs !== undefined) {
        waiter.timer = setTimeout(() => giveUp(new PeerError('TIMEOUT', `no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
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
    const first = this.linesSeen++ === 0;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.options.onStray?.(line, 'not JSON');
      return;
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      this.options.onStray?.(line, 'not a JSON object');
      return;
    }
    const object = message as Record<string, unknown>;
    if (first && this.options.isBanner?.(object)) {
      this.banner = object;
      return;
    }
    const id = object.id as Id | undefined | null;
    const hasId = id !== undefined && id !== null;
    let key: Id | undefined = hasId ? id : undefined;
    if (!hasId && this.options.fifo) key = this.waiters.keys().next().value;
    const waiter = key === undefined ? undefined : this.waiters.get(key);
    if (!waiter) {
      this.options.onStray?.(line, hasId ? `unknown id ${id}` : 'no id');
      return;
    }
    this.waiters.delete(key!);
    waiter.cleanup();
    if (waiter.abandoned) this.options.onStray?.(line, `answer to request ${key}, given up on before`);
    else waiter.resolve(object);
  }

  /** Fails every pending request with `error`; later requests fail at once. */
  close(error: Error = new PeerError('CLOSED', 'connection closed')): void {
    this.closedWith = error;
    for (const [id, waiter] of this.waiters) {
      this.waiters.delete(id);
      waiter.cleanup();
      if (!waiter.abandoned) waiter.reject(error);
    }
  }

  /** Fails pending requests but keeps accepting new ones (after a reconnect). */
  reset(error: Error): void {
    this.close(error);
    this.closedWith = undefined;
    this.buffer.push('\n');
    this.linesSeen = 0;
    this.banner = undefined;
  }
}
