// A client for a newline-delimited JSON server over TCP: one connection reused, requests
// correlated by id (or in order, for servers that echo none), an optional greeting line per
// connection, connect and request timeouts, and a fresh connection after a drop.
import { Socket } from 'node:net';
import { JsonLinesPeer, PeerError, type RequestOptions } from './peer.js';

export class ConnectError extends Error {
  readonly host: string;
  readonly port: number;
  constructor(host: string, port: number, reason: string, options?: { cause?: unknown }) {
    super(`cannot connect to ${host}:${port}: ${reason}`, options);
    this.name = 'ConnectError';
    this.host = host;
    this.port = port;
  }
}

export interface JsonLinesTcpOptions {
  host: string;
  port: number;
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Largest response line accepted, in characters (default 64 MiB); a longer one drops the connection. */
  maxLineLength?: number;
  onStray?(line: string, reason: string): void;
  /** Answers may carry no id and come in request order: see `JsonLinesPeerOptions.fifo`. */
  fifo?: boolean;
  /** Recognises the greeting a server may send first on each connection (kept as `banner`). */
  isBanner?(message: Record<string, unknown>): boolean;
}

export class JsonLinesTcpClient {
  private readonly options: JsonLinesTcpOptions;
  private socket?: Socket;
  private peer?: JsonLinesPeer;
  private connecting?: Promise<JsonLinesPeer>;
  private nextId = 1;
  private opened = 0;

  constructor(options: JsonLinesTcpOptions) {
    this.options = options;
  }

  get connected(): boolean {
    return this.peer !== undefined;
  }

  /** How many connections were opened so far: a new number means a new connection (and a new greeting). */
  get connections(): number {
    return this.opened;
  }

  /** The greeting of the current connection, once received. */
  get banner(): Record<string, unknown> | undefined {
    return this.peer?.banner;
  }

  private connect(): Promise<JsonLinesPeer> {
    // A socket the server closed is dropped by its 'close' event; one that is no longer writable
    // (closed but the event not yet delivered) is not reused either.
    if (this.peer && this.socket?.writable) return Promise.resolve(this.peer);
    if (this.peer) this.close();
    this.connecting ??= new Promise<JsonLinesPeer>((resolve, reject) => {
      const { host, port } = this.options;
      const socket = new Socket();
      const timeoutMs = this.options.connectTimeoutMs ?? 3_000;
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ConnectError(host, port, `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.setEncoding('utf8');
      socket.setNoDelay(true);
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(new ConnectError(host, port, error.code ?? error.message, { cause: error }));
      });
      socket.connect(port, host, () => {
        clearTimeout(timer);
        const peer = new JsonLinesPeer({
          write: (line) => void socket.write(line),
          onStray: this.options.onStray,
          maxLineLength: this.options.maxLineLength,
          fifo: this.options.fifo,
          isBanner: this.options.isBanner,
        });
        socket.removeAllListeners('error');
        const drop = (reason: string) => {
          peer.close(new PeerError('CLOSED', `connection to ${host}:${port} closed${reason ? `: ${reason}` : ''}`));
          if (this.socket === socket) {
            this.socket = undefined;
            this.peer = undefined;
          }
        };
        socket.on('data', (chunk: string) => {
          peer.receive(chunk);
          // The peer gave up on this stream (a line too long): start over on the next request.
          if (peer.closed) {
            drop('');
            socket.destroy();
          }
        });
        socket.on('error', (error: NodeJS.ErrnoException) => drop(error.code ?? error.message));
        socket.on('close', () => drop(''));
        this.socket = socket;
        this.peer = peer;
        this.opened++;
        resolve(peer);
      });
    }).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Sends `message` with a fresh id (unless it has one) and resolves with the answer. */
  async request(message: Record<string, unknown>, options: RequestOptions = {}): Promise<Record<string, unknown>> {
    const peer = await this.connect();
    const id = (message.id as string | number | undefined) ?? this.nextId++;
    try {
      return await peer.request(
        { ...message, id },
        { timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs, signal: options.signal },
      );
    } catch (error) {
      // A request that timed out leaves the server in an unknown state: start over next time.
      if (error instanceof PeerError && error.code === 'TIMEOUT') this.close();
      throw error;
    }
  }

  /** Drops the connection; pending requests fail with `error` (default: connection closed). The next request reconnects. */
  close(error?: Error): void {
    this.socket?.destroy();
    this.peer?.close(error);
    this.socket = undefined;
    this.peer = undefined;
  }
}
