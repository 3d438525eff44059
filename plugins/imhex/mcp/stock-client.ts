// Stock ImHex's built-in MCP server, reached through its stdio bridge `imhex --mcp` (a child
// process, started on first use, stopped with the host; its stderr is kept for error messages).
// ImHex answers MCP 2025-06-18 with tools only; a failing tool is a JSON-RPC error, never an
// isError result (lib/libimhex/source/mcp/server.cpp). This wraps the kit's UpstreamClient with
// what every ImHex call needs: ImHex's tool list, and the data-source check that keeps ImHex from
// crashing on tools that assume a file is open (known-tools.ts).
import * as z from 'zod';
import { ToolError, UnavailableError, type ListKind, type Logger, type ToolResult } from '../../../src/backend/index.js';
import { UpstreamClient, type UpstreamStatus } from '../../../src/kit/upstream.js';
import { RpcCode } from '../protocol.js';
import type { ClientSource } from './client-source.js';
import { KNOWN_TOOLS, NEEDS_DATA_SOURCE, type KnownTool } from './known-tools.js';

export interface StockImHexOptions {
  command: string;
  args: string[];
  logger: Logger;
  /** The environment `imhex --mcp` runs in (default: this process's). */
  env?: NodeJS.ProcessEnv;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  /** ImHex's tool list differs from the one published so far. */
  onToolsChanged?(): void;
}

/** The MCP client the kit's UpstreamClient hands to a request. */
type McpClient = Parameters<Parameters<UpstreamClient['request']>[0]>[0];

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

const dataSource = z.object({ name: z.string(), type: z.string(), size: z.number(), is_writable: z.boolean(), handle: z.number() });
export type DataSource = z.output<typeof dataSource>;

const dataSources = z.object({ data_sources: z.array(dataSource) });

const ENABLE_HINT =
  'start ImHex (1.39 or later) and tick Settings → General → Network → MCP Server; the bridge reaches the ImHex already running as the same user';

export class StockImHex {
  readonly commandLine: string;
  private readonly o: StockImHexOptions;
  private upstream: UpstreamClient;
  private listed?: KnownTool[];
  /** The list of a bridge that has since been restarted: still published until the new one answers. */
  private lastListed?: KnownTool[];
  private listing?: Promise<KnownTool[]>;
  private closed = false;
  /** ImHex's current data source as last seen: ImHex has one for the whole program, its clients one each here. */
  private currentHandle?: number;
  private userHandle?: number;
  private turn: Promise<unknown> = Promise.resolve();

  constructor(options: StockImHexOptions) {
    this.o = options;
    this.commandLine = [options.command, ...options.args].join(' ');
    this.upstream = this.fresh();
  }

  private fresh(): UpstreamClient {
    return new UpstreamClient({
      name: 'imhex',
      // ImHex is a desktop program (an AppImage, a Flatpak, …): it gets the whole environment.
      target: { kind: 'stdio', command: this.o.command, args: this.o.args, env: stringEnv(this.o.env ?? process.env) },
      logger: this.o.logger,
      connectTimeoutMs: this.o.connectTimeoutMs,
      requestTimeoutMs: this.o.requestTimeoutMs,
      // A down ImHex is retried on the next call, soon: the user is likely starting it right now.
      backoff: { initialMs: 250, maxMs: 2_000 },
      describeDown: (reason) => `stock ImHex not reachable through \`${this.commandLine}\`: ${reason} — ${ENABLE_HINT}`,
      onListChanged: (kind: ListKind) => {
        if (kind === 'tools') this.listed = undefined;
      },
    });
  }

  /**
   * A bridge that let a request time out is not used again: when ImHex quits or crashes, the real
   * `imhex --mcp` keeps waiting on the closed socket (spinning at 100 % CPU) and never reads
   * another line. It is stopped, and the next call starts a new one.
   */
  private async replace(stale: UpstreamClient): Promise<void> {
    if (this.upstream !== stale || this.closed) return;
    this.upstream = this.fresh();
    this.listed = undefined;
    await stale.close();
  }

  status(): UpstreamStatus {
    return this.upstream.status();
  }

  /** ImHex's own tools: its tools/list once it has been reached, the known list before that. */
  tools(): KnownTool[] {
    return this.listed ?? this.lastListed ?? KNOWN_TOOLS;
  }

  /** Connects (once) and reads ImHex's tool list; tells `onToolsChanged` when it is not what was published. */
  async connect(signal?: AbortSignal): Promise<KnownTool[]> {
    if (this.listed) {
      await this.upstream.connect();
      return this.listed;
    }
    this.listing ??= this.send('tools/list', (c) => c.listTools(undefined, this.upstream.listOptions()), signal)
      .then(({ tools }) => {
        const before = JSON.stringify(this.tools());
        this.listed = tools.map((t) => ({
          name: t.name,
          title: t.title ?? t.name,
          description: t.description ?? '',
          inputSchema: t.inputSchema as KnownTool['inputSchema'],
          outputSchema: (t.outputSchema ?? { type: 'object' }) as KnownTool['outputSchema'],
        }));
        this.lastListed = this.listed;
        if (JSON.stringify(this.listed) !== before) this.o.onToolsChanged?.();
        return this.listed;
      })
      .finally(() => (this.listing = undefined));
    return this.listing;
  }

  /** Does the ImHex we talk to offer this tool? */
  async offers(name: string, signal?: AbortSignal): Promise<boolean> {
    return (await this.connect(signal)).some((t) => t.name === name);
  }

  /**
   * Calls one of ImHex's tools for a client (`source`: the data source it chose, kept by the
   * caller); for those that need an open data source, checks there is one first and runs on the
   * client's. open_file and select_data_source make their answer the client's choice.
   */
  async call(name: string, args: Record<string, unknown>, options: CallOptions & { source?: ClientSource } = {}): Promise<ToolResult> {
    await this.connect(options.signal);
    const source = options.source ?? {};
    if (name === 'open_file' || name === 'select_data_source') {
      if (name === 'select_data_source') await this.openSources(options);
      return this.exclusive(async () => {
        await this.learnUser(options);
        const result = await this.raw(name, args, options);
        const answer = result.structuredContent as { handle?: unknown; selected_handle?: unknown; size?: unknown } | undefined;
        const handle = name === 'open_file' ? answer?.handle : answer?.selected_handle;
        // A file ImHex failed to open answers size 0 and is gone: nothing changed.
        if (typeof handle === 'number' && !(name === 'open_file' && answer?.size === 0)) {
          this.currentHandle = handle;
          source.handle = handle;
        }
        return result;
      });
    }
    if (!NEEDS_DATA_SOURCE.has(name)) return this.raw(name, args, options);
    await this.openSources(options);
    return this.onSource(
      source.handle,
      async () => {
        const result = await this.raw(name, args, options);
        const handle = (result.structuredContent as { handle?: unknown } | undefined)?.handle;
        return { value: result, handle: typeof handle === 'number' ? handle : undefined };
      },
      options,
    );
  }

  /**
   * Runs `work` with data source `handle` current in ImHex (selected first when another one is),
   * under one lock: no other client's selection comes between the select and the work. `handle`
   * undefined (a client that chose none) runs on the user's: the one ImHex had current by its own
   * doing (its window), restored when a client's selection replaced it. `work` says which handle
   * ImHex answered for; an answer for another than expected is the user's doing, and noted so.
   */
  async onSource<T>(handle: number | undefined, work: () => Promise<{ value: T; handle?: number }>, options: CallOptions = {}): Promise<T> {
    return this.exclusive(async () => {
      for (let attempt = 0; ; attempt++) {
        const want = handle ?? this.userHandle;
        if (want !== undefined && this.currentHandle !== want) {
          try {
            await this.select(want, options);
          } catch (error) {
            if (handle !== undefined) throw error;
            this.userHandle = undefined; // the user's file was closed: whatever ImHex has current is theirs now
          }
        }
        const expected = this.currentHandle;
        const { value, handle: answered } = await work();
        if (answered !== undefined) {
          if (expected === undefined || answered !== expected) this.userHandle = answered;
          this.currentHandle = answered;
        }
        // The user switched tabs in ImHex's window meanwhile: select again, once.
        if (handle === undefined || answered === undefined || answered === handle || attempt > 0) return value;
      }
    });
  }

  /** One thing at a time that depends on which data source is current. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work);
    this.turn = run.catch(() => undefined);
    return run;
  }

  /**
   * Before mcphost first changes ImHex's current data source, which one the user had: a client
   * that chose none keeps reading that one.
   */
  private async learnUser(options: CallOptions): Promise<void> {
    if (this.userHandle !== undefined) return;
    const { data_sources } = await this.structured('list_open_data_sources', {}, dataSources, options);
    if (data_sources.length === 0) return;
    const probe = await this.structured('read_data', { address: 0, size: 0 }, z.object({ handle: z.number() }).passthrough(), options);
    this.userHandle = probe.handle;
    this.currentHandle = probe.handle;
  }

  private async select(handle: number, options: CallOptions): Promise<void> {
    await this.learnUser(options);
    const { selected_handle } = await this.structured('select_data_source', { handle }, z.object({ selected_handle: z.number() }), options);
    this.currentHandle = selected_handle;
    if (selected_handle !== handle)
      throw new ToolError(
        `ImHex has no data source with handle ${handle} open any more (was it closed?): choose one with imhex_select_data_source (imhex_list_open_data_sources lists them) or open one with imhex_open_file`,
        { code: RpcCode.NO_PROVIDER, data: { handle } },
      );
  }

  /** The open data sources; a -32001 error naming what to do when there is none. */
  async openSources(options: CallOptions = {}): Promise<DataSource[]> {
    const { data_sources } = await this.structured('list_open_data_sources', {}, dataSources, options);
    if (data_sources.length === 0) {
      throw new ToolError(
        'ImHex has no data source open: open a file in ImHex, or call imhex_open_file with its path (ImHex would crash if asked to read with nothing open)',
        { code: RpcCode.NO_PROVIDER },
      );
    }
    return data_sources;
  }

  /** Calls a tool and checks its structuredContent against `schema`. */
  async structured<S extends z.ZodType>(
    name: string,
    args: Record<string, unknown>,
    schema: S,
    options: CallOptions = {},
  ): Promise<z.output<S>> {
    const result = await this.raw(name, args, options);
    const parsed = schema.safeParse(result.structuredContent);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ToolError(
        `ImHex answered ${name} with an unexpected result: ${issue.path.join('.') || 'structuredContent'}: ${issue.message} (via \`${this.commandLine}\`)`,
        { code: 'BAD_RESPONSE', data: { tool: name } },
      );
    }
    return parsed.data;
  }

  private raw(name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolResult> {
    const timeout = options.timeoutMs ?? this.o.requestTimeoutMs;
    return this.send(
      name,
      (c) => c.callTool({ name, arguments: args }, { signal: options.signal, timeout }),
      options.signal,
    ) as Promise<ToolResult>;
  }

  /** One request through the bridge; a timeout retires the bridge (see `replace`). */
  private async send<T>(what: string, run: (c: McpClient) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const upstream = this.upstream;
    try {
      return await upstream.request(run, signal);
    } catch (error) {
      if (error instanceof ToolError && error.code === 'TIMEOUT') await this.replace(upstream);
      throw this.explain(what, error);
    }
  }

  /** ImHex's JSON-RPC errors keep their code; the message says it was ImHex, and which tool. */
  private explain(name: string, error: unknown): unknown {
    if (!(error instanceof ToolError) || error instanceof UnavailableError) return error;
    const message = error.message.replace(/^upstream imhex: /, '').replace(/^MCP error -?\d+: /, '');
    if (error.code === 'TIMEOUT') {
      return new UnavailableError(
        `ImHex did not answer ${name} within ${this.o.requestTimeoutMs} ms (via \`${this.commandLine}\`) — is ImHex busy, or is another MCP client connected to it? It serves one at a time (plugins.imhex.requestTimeoutMs sets the wait)`,
        { cause: error, data: { tool: name } },
      );
    }
    if (error.code === RpcCode.METHOD_NOT_FOUND) {
      return new ToolError(`ImHex does not offer the tool ${name} (Method not found): this ImHex is older or newer than mcphost expects`, {
        code: error.code,
        cause: error,
      });
    }
    return new ToolError(`ImHex failed ${name}: ${message}`, { code: error.code, data: error.data, cause: error });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.upstream.close();
  }
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
