// A mounted tool's call over stdio, answered past the SDK server's dispatch. For each request the
// SDK's Protocol (core-internal/src/shared/protocol.ts: the transport's onmessage, _onrequest) checks
// the message's shape three times over (is it a response, an error, a request), builds a context of
// closures, and its Server (server/src/server/server.ts: _wrapHandler for tools/call) checks the
// CallToolRequest schema and the result schema, all with zod. A request this module can answer
// exactly as that path would — a 2025-era session's tools/call of the common shape, for a tool the
// catalog lists that relays to a 2025-era server (its outcome is a result, never an input-required
// result, a task or a refused request) — runs the same call here: the same registry call (argument
// check, deadline, cancellation, size cap, metrics), the same channel for the server's questions,
// the same progress and progress-confirming ping (../tool-calls.ts's legacyCall), and the same
// answer (answer.ts). Everything else — another era, another shape, a name the catalog does not list
// yet, a plugin's or discover mode's tool, an SDK without the codec answer.ts needs — goes to the SDK.
import type { JSONRPCMessage, Server, ServerContext } from '@modelcontextprotocol/server';
import { relaysPlainly } from '../../kit/mcp/defs.js';
import { isPlain, onlyKeys, type Plain } from '../../kit/mcp/sdk-bypass/message-shape.js';
import { wireCodecOf } from '../../kit/mcp/sdk-bypass/sdk-private.js';
import type { HostClient } from '../../registry/clients.js';
import type { Registry } from '../../registry/registry.js';
import type { ToolSurface } from '../../discover/surface.js';
import { channelFor, isModern, type SessionLogLevel } from '../channel.js';
import { callSettings, legacyCall, progressSink } from '../tool-calls.js';
import { answer, thrown } from './answer.js';
import { Cancellation } from './cancellation.js';

const PARAM_KEYS = ['name', 'arguments', '_meta'];
/** `_meta` keys the SDK passes on untouched in the 2025 era, and that tools/call reads itself. */
const META_KEYS = ['progressToken', 'traceparent', 'tracestate', 'mcphost/timeoutMs'];

/** The params of a tools/call request the SDK's CallToolRequest schema accepts unchanged, or undefined. */
function plainParams(message: JSONRPCMessage): { name: string; arguments?: Plain; _meta?: Plain } | undefined {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return undefined;
  const params = message.params;
  if (!isPlain(params) || typeof params.name !== 'string' || !onlyKeys(params, PARAM_KEYS)) return undefined;
  if (params.arguments !== undefined && !isPlain(params.arguments)) return undefined;
  if ('arguments' in params && params.arguments === undefined) return undefined;
  const meta = params._meta;
  if (meta !== undefined && (!isPlain(meta) || !onlyKeys(meta, META_KEYS))) return undefined;
  if ('_meta' in params && meta === undefined) return undefined;
  return params as { name: string; arguments?: Plain; _meta?: Plain };
}

export interface FastToolCallOptions {
  /** The SDK server pinned to the connection (none until the first request). */
  server(): Server | undefined;
  client: HostClient;
  session: SessionLogLevel;
  surface: ToolSurface;
  send(message: JSONRPCMessage): Promise<void>;
  onerror(error: Error): void;
  /** An SDK field the fast path reads is gone (said once; the calls take the SDK path). */
  warn(message: string): void;
}

export interface FastToolCalls {
  /** Answers `message` here when it can, exactly as the SDK path would: true when it did. */
  take(message: JSONRPCMessage): boolean;
  /** The connection closed: the calls in flight end unanswered, as the SDK's do. */
  close(): void;
  /** How many calls it took. */
  readonly taken: number;
}

export function fastToolCalls(registry: Registry, options: FastToolCallOptions): FastToolCalls {
  const inFlight = new Map<string | number, Cancellation>();
  let taken = 0;

  function take(message: JSONRPCMessage): boolean {
    if ('method' in message && message.method === 'notifications/cancelled') {
      const params = message.params as { requestId?: string | number; reason?: unknown } | undefined;
      // The SDK aborts its own requests; this one is ours (ids are the client's, unique while in flight).
      if (params?.requestId !== undefined) inFlight.get(params.requestId)?.abort(params.reason);
      return false;
    }
    const params = plainParams(message);
    if (!params) return false;
    const server = options.server();
    if (!server || server.getNegotiatedProtocolVersion() === undefined || isModern(server)) return false;
    const codec = wireCodecOf(server, options.warn);
    if (!codec) return false;
    if (options.surface.isMeta(params.name)) return false;
    const tool = registry.listedTool(params.name);
    if (!tool || !relaysPlainly(tool.def)) return false;
    const id = (message as { id: string | number }).id;
    if (inFlight.has(id)) return false;
    const controller = new Cancellation();
    inFlight.set(id, controller);
    taken++;
    const ctx = requestContext(server, id, params._meta, controller.signal);
    const sink = progressSink(ctx, params._meta?.progressToken);
    const channel = channelFor(server, ctx, options.session);
    const call = callSettings(ctx, params._meta, options.client);
    // Over stdio a 2025-era call that sent progress is confirmed with a ping (stdio.ts's confirmProgress).
    legacyCall(registry, tool, params.arguments, call, channel, ctx, sink, true)
      .then(
        (outcome) => answer(codec, id, outcome),
        (error: unknown) => thrown(codec, id, error),
      )
      .then((response) => {
        // A cancelled request is not answered (the SDK's rule too).
        if (!controller.signal.aborted) return options.send(response);
      })
      .catch((error: unknown) => options.onerror(new Error(`Failed to send response: ${String(error)}`)))
      .finally(() => {
        if (inFlight.get(id) === controller) inFlight.delete(id);
      });
    return true;
  }

  return {
    take,
    get taken() {
      return taken;
    },
    close() {
      for (const controller of inFlight.values()) controller.abort(new Error('Connection closed'));
      inFlight.clear();
    },
  };
}

/**
 * What tool-calls.ts reads of the SDK's request context, for a request the SDK never saw: its
 * `_meta`, its cancellation, and requests and notifications to the client (over stdio they reach
 * the one client whatever request they relate to).
 */
function requestContext(server: Server, id: string | number, meta: Plain | undefined, signal: AbortSignal): ServerContext {
  const send = server.request.bind(server) as (...args: unknown[]) => Promise<unknown>;
  return {
    mcpReq: {
      id,
      method: 'tools/call',
      _meta: meta,
      signal,
      send: (...args: unknown[]) => send(...args),
      notify: (notification: unknown) => server.notification(notification as Parameters<Server['notification']>[0]),
    },
  } as unknown as ServerContext;
}
