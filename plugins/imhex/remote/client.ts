// JSON-RPC 2.0 client for ImHex's MCP Integration server: one TCP connection reused, requests
// sent one at a time and correlated by id, a fresh connection after a drop, connect and request
// timeouts. JSON-RPC errors become tool errors with ImHex's code and message; anything that is
// not a well-formed answer drops the connection (the stream can no longer be trusted).
import type * as z from 'zod';
import { ToolError, UnavailableError, type Logger } from '../../../src/backend/index.js';
import { PeerError, ConnectError, JsonLinesTcpClient } from '../../../src/kit/json-lines/index.js';

export interface ImHexClientOptions {
  host: string;
  port: number;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  logger?: Logger;
  /** Appended to the "not reachable" message (how else the plugin could be used). */
  unreachableHint?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Send the request again once if the connection dropped before the answer (reads only). */
  retryOnDrop?: boolean;
}

/** A malformed answer: not JSON, no id, not JSON-RPC 2.0, or a result of the wrong shape. */
const BAD_RESPONSE = 'BAD_RESPONSE';

export class ImHexClient {
  readonly where: string;
  private readonly o: ImHexClientOptions;
  private readonly tcp: JsonLinesTcpClient;
  private queue: Promise<unknown> = Promise.resolve();
  private busy = false;

  constructor(options: ImHexClientOptions) {
    this.o = options;
    this.where = `${options.host}:${options.port}`;
    this.tcp = new JsonLinesTcpClient({
      host: options.host,
      port: options.port,
      connectTimeoutMs: options.connectTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs,
      onStray: (line, reason) => this.stray(line, reason),
    });
  }

  /** Calls `method` and checks the result against `schema`. Calls run one after another. */
  call<S extends z.ZodType>(
    method: string,
    params: Record<string, unknown> | undefined,
    schema: S,
    options: CallOptions = {},
  ): Promise<z.output<S>> {
    const run = this.queue.then(() => this.attempt(method, params, schema, options, options.retryOnDrop ?? false));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async attempt<S extends z.ZodType>(
    method: string,
    params: Record<string, unknown> | undefined,
    schema: S,
    options: CallOptions,
    retry: boolean,
  ): Promise<z.output<S>> {
    options.signal?.throwIfAborted();
    let answer: Record<string, unknown>;
    this.busy = true;
    try {
      answer = await this.tcp.request(
        { jsonrpc: '2.0', method, ...(params && { params }) },
        { signal: options.signal, timeoutMs: options.timeoutMs ?? this.o.requestTimeoutMs },
      );
    } catch (error) {
      if (error instanceof PeerError && error.code === 'CLOSED' && retry) {
        this.o.logger?.debug(`connection to ImHex dropped during ${method}; sending it again`);
        return this.attempt(method, params, schema, options, false);
      }
      throw this.failure(method, error, options);
    } finally {
      this.busy = false;
    }
    return this.unpack(method, answer, schema);
  }

  private unpack<S extends z.ZodType>(method: string, answer: Record<string, unknown>, schema: S): z.output<S> {
    if (answer.jsonrpc !== '2.0') throw this.malformed(method, `jsonrpc is ${JSON.stringify(answer.jsonrpc)}, expected "2.0"`);
    if ('error' in answer)
      throw rpcError(answer.error) ?? this.malformed(method, `error is not {code, message}: ${short(JSON.stringify(answer.error))}`);
    if (!('result' in answer)) throw this.malformed(method, 'the answer has neither result nor error');
    const parsed = schema.safeParse(answer.result);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw this.malformed(
        method,
        `result${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message} (got ${short(JSON.stringify(answer.result))})`,
      );
    }
    return parsed.data;
  }

  /** A line that answers nothing we asked: the answer to the request in flight is lost, so fail it. */
  private stray(line: string, reason: string): void {
    if (!this.busy) {
      this.o.logger?.debug(`ignoring a line from ImHex (${reason}): ${short(line)}`);
      return;
    }
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    // A server that could not read our request answers with an error and id null.
    const error = parsed && parsed.id === null ? rpcError(parsed.error) : undefined;
    this.tcp.close(error ?? new PeerError('BAD_MESSAGE', `${reason}: ${short(line)}`));
  }

  private malformed(method: string, what: string): ToolError {
    this.tcp.close();
    return new ToolError(`ImHex at ${this.where} sent a malformed answer to ${method}: ${what}`, { code: BAD_RESPONSE, data: { method } });
  }

  private failure(method: string, error: unknown, options: CallOptions): Error {
    if (error instanceof ToolError) return error;
    if (error instanceof ConnectError) {
      const reason = (error.cause as NodeJS.ErrnoException | undefined)?.code ?? error.message;
      return new UnavailableError(
        `ImHex not reachable at ${this.where} — is the MCP Integration plugin's server running?${this.o.unreachableHint ?? ''}`,
        {
          cause: error,
          data: { host: this.o.host, port: this.o.port, reason },
        },
      );
    }
    if (error instanceof PeerError) {
      switch (error.code) {
        case 'TIMEOUT':
          return new UnavailableError(
            `ImHex at ${this.where} did not answer ${method} within ${options.timeoutMs ?? this.o.requestTimeoutMs} ms — is ImHex busy or hung? (plugins.imhex.requestTimeoutMs sets the wait)`,
            { cause: error, data: { method } },
          );
        case 'CLOSED':
          return new UnavailableError(
            `ImHex at ${this.where} closed the connection before answering ${method}${method === 'write_bytes' ? ' (the write may or may not have happened)' : ''}`,
            { cause: error, data: { method } },
          );
        case 'ABORTED':
          // The answer may still come: start over on a fresh connection.
          this.tcp.close();
          return (options.signal?.reason as Error | undefined) ?? error;
        default:
          return new ToolError(`ImHex at ${this.where} sent a malformed answer to ${method}: ${error.message}`, {
            code: BAD_RESPONSE,
            cause: error,
            data: { method },
          });
      }
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  close(): void {
    this.tcp.close();
  }
}

/** A JSON-RPC error object as a tool error carrying ImHex's code, message and data. */
function rpcError(value: unknown): ToolError | undefined {
  const e = value as { code?: unknown; message?: unknown; data?: unknown } | null;
  if (!e || typeof e !== 'object' || !Number.isInteger(e.code) || typeof e.message !== 'string') return undefined;
  return new ToolError(e.message, { code: e.code as number, data: e.data === undefined ? undefined : { imhex: e.data } });
}

function short(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
