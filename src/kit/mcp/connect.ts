// Opening one connection to an upstream: spawn the stdio child or reach the URL (Streamable HTTP,
// then the older HTTP+SSE transport after a 4xx), and run the initialize handshake. The whole of it
// — fallback included — fits in one deadline, and the caller's signal (mcphost shutting down) cuts
// it short. A transport that failed is closed in the background: the error is reported at the
// deadline, not after the child's shutdown grace; `cleanup` lets the owner wait for it on close.
import { setMaxListeners } from 'node:events';
import {
  Client,
  SdkHttpError,
  SSEClientTransport,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/client/stdio';
import type { ListKind } from '../../backend/types.js';
import { RELAYED_CAPABILITIES, type AskRouter } from './asks.js';
import { RELAYED_UI_EXTENSION } from '../../backend/ui-extension.js';
import { boundedFetch } from './bounded-fetch.js';
import { describeError } from './errors.js';
import { transportAbortSignal } from './sdk-bypass/sdk-private.js';
import { ChildProcessTransport } from './stdio-child.js';
import { carryTaskResults } from './task-results.js';
import type { UpstreamOptions, UpstreamTarget } from './types.js';

export interface Live {
  client: Client;
  transport: Transport;
  via: string;
}

export interface OpenContext {
  options: UpstreamOptions;
  /** Epoch ms by which the server must have answered initialize. */
  deadline: number;
  signal: AbortSignal;
  /** Closing a failed transport (a child's shutdown), for the owner to await on close. */
  cleanup(closing: Promise<unknown>): void;
  onListChanged(kind: ListKind): void;
  /** Relays the server's elicitation, sampling and roots requests to the client of the call. */
  asks?: AskRouter;
  /** The server said a subscribed resource changed (notifications/resources/updated). */
  onResourceUpdated?(uri: string): void;
}

export class DeadlineError extends Error {
  constructor(where: string, ms: number) {
    super(`${where} did not answer initialize within ${ms} ms`);
    this.name = 'DeadlineError';
  }
}

export async function openUpstream(ctx: OpenContext): Promise<Live> {
  const target = ctx.options.target;
  return target.kind === 'stdio' ? openStdio(ctx, target) : openHttp(ctx, target);
}

function newClient(ctx: OpenContext): Client {
  const notify = (kind: ListKind) => ({ autoRefresh: false, debounceMs: 0, onChanged: () => ctx.onListChanged(kind) });
  const protocol = ctx.options.protocol ?? '2025-11-25';
  const client = new Client(
    { name: 'mcphost', version: '1' },
    {
      listChanged: { tools: notify('tools'), prompts: notify('prompts'), resources: notify('resources') },
      // One connection serves every client of mcphost: it declares what mcphost relays (views to the
      // clients that render them; questions to those that declared them), and each client is shown
      // or asked only what it declared. A 2026-era request carries the caller's own declaration (pass-through.ts).
      capabilities: { ...(ctx.asks && RELAYED_CAPABILITIES), extensions: RELAYED_UI_EXTENSION },
      ...(protocol !== '2025-11-25' && { versionNegotiation: { mode: protocol === 'auto' ? 'auto' : { pin: protocol } } }),
    },
  );
  ctx.asks?.install(client);
  client.setNotificationHandler('notifications/resources/updated', (n) => ctx.onResourceUpdated?.(n.params.uri));
  return client;
}

async function handshake(ctx: OpenContext, transport: Transport, via: string, where: string): Promise<Live> {
  const client = newClient(ctx);
  // Only a 2026-era server creates tasks; a 2025-era connection's messages are left as they are.
  if ((ctx.options.protocol ?? '2025-11-25') !== '2025-11-25') carryTaskResults(transport);
  const ms = ctx.deadline - Date.now();
  const timeout = AbortSignal.timeout(Math.max(1, ms));
  try {
    if (ms <= 0) throw new DeadlineError(where, ctx.options.connectTimeoutMs ?? 30_000);
    await client.connect(transport, { signal: AbortSignal.any([ctx.signal, timeout]), timeout: Math.max(1, ms) });
    // The HTTP transports hand one long-lived abort signal to every fetch, and each request's
    // listener on it goes only when that request is garbage-collected: thousands of quick calls
    // (a snapshot recording) trip Node's leak warning although nothing leaks.
    if (!(transport instanceof ChildProcessTransport)) {
      const shared = transportAbortSignal(transport, (message) => ctx.options.logger.warn(message));
      if (shared) setMaxListeners(0, shared);
    }
  } catch (error) {
    // A child that never completed the handshake is terminated at once, not given the stdin grace.
    const stopping = transport instanceof ChildProcessTransport ? transport.terminate() : transport.close();
    ctx.cleanup(Promise.all([stopping, client.close()]).catch(() => undefined));
    if (timeout.aborted && !ctx.signal.aborted) throw new DeadlineError(where, ctx.options.connectTimeoutMs ?? 30_000);
    throw error;
  }
  return { client, transport, via };
}

async function openStdio(ctx: OpenContext, target: Extract<UpstreamTarget, { kind: 'stdio' }>): Promise<Live> {
  const base: Record<string, string> = {};
  const env = ctx.options.env ?? process.env;
  for (const key of DEFAULT_INHERITED_ENV_VARS) if (env[key] !== undefined) base[key] = env[key]!;
  const transport = new ChildProcessTransport({
    command: target.command,
    args: target.args,
    cwd: target.cwd,
    env: { ...base, ...target.env },
    graceMs: ctx.options.graceMs,
    maxMessageBytes: ctx.options.maxMessageBytes,
    onStderr: (line) => ctx.options.logger.debug(`stderr: ${line}`),
  });
  try {
    return await handshake(ctx, transport, 'stdio', `\`${transport.commandLine()}\``);
  } catch (error) {
    if (transport.exit) throw new Error(transport.describeExit(), { cause: error });
    throw error;
  }
}

async function openHttp(ctx: OpenContext, target: Extract<UpstreamTarget, { kind: 'http' }>): Promise<Live> {
  const url = new URL(target.url);
  const requestInit: RequestInit = target.headers ? { headers: target.headers } : {};
  const fetch = boundedFetch(ctx.options.maxMessageBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE);
  const authProvider = target.auth?.provider;
  try {
    return await handshake(
      ctx,
      new StreamableHTTPClientTransport(url, { requestInit, fetch, authProvider }),
      'streamable-http',
      target.url,
    );
  } catch (error) {
    const status = error instanceof SdkHttpError ? error.status : undefined;
    if (ctx.options.sseFallback === false || status === undefined || status < 400 || status >= 500 || status === 401 || status === 403)
      throw error;
    try {
      return await handshake(ctx, new SSEClientTransport(url, { requestInit, fetch, authProvider }), 'sse', target.url);
    } catch (fallback) {
      throw new Error(`${describeError(error, target)}; the older HTTP+SSE transport failed too: ${describeError(fallback, target)}`, {
        cause: fallback,
      });
    }
  }
}
