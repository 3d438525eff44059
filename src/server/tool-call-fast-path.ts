// A mounted tool's call over stdio, answered past the SDK server's dispatch. For each request the
// SDK checked the message's shape three times over (is it a response, an error, a request), built
// a context of closures, checked the CallToolRequest schema twice and the result schema once, all
// with zod: in the profile of a relayed call as much as mcphost's own work. A request this module
// can answer exactly as that path would — a 2025-era session's tools/call of the common shape, for
// a tool the catalog lists that relays to a 2025-era server (its outcome is a result, never an
// input-required result, a task or a refused request) — runs the same call here: the same registry
// call (argument check, deadline, cancellation, size cap, metrics), the same channel for the
// server's questions, the same progress and progress-confirming ping (tool-calls.ts's legacyCall),
// and the same answer: a result the SDK's schema would hand back unchanged goes out as it is, any
// other goes through the SDK's own result check. Everything else — another era, another shape, a
// name the catalog does not list yet, a plugin's or discover mode's tool — goes to the SDK.
import type { JSONRPCMessage, Server, ServerContext } from '@modelcontextprotocol/server';
import { relaysPlainly } from '../kit/mcp/defs.js';
import { isPlain, onlyKeys, type Plain } from '../kit/mcp/jsonrpc-shape.js';
import type { HostClient } from '../registry/clients.js';
import type { Registry } from '../registry/registry.js';
import type { CallOutcome } from '../registry/result.js';
import type { ToolSurface } from '../discover/surface.js';
import { channelFor, isModern, type SessionLogLevel } from './channel.js';
import { callSettings, legacyCall, progressSink } from './tool-calls.js';

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

/**
 * A result the 2025 CallToolResult schema returns unchanged, key order included: `content` of text
 * items only (`type`, then `text`), then at most a boolean `isError`.
 */
function unchangedBySchema(result: Plain): boolean {
  const keys = Object.keys(result);
  if (keys[0] !== 'content' || keys.length > 2) return false;
  if (keys.length === 2 && (keys[1] !== 'isError' || typeof result.isError !== 'boolean')) return false;
  if (!Array.isArray(result.content)) return false;
  for (const item of result.content as unknown[]) {
    if (!isPlain(item) || item.type !== 'text' || typeof item.text !== 'string') return false;
    const itemKeys = Object.keys(item);
    if (itemKeys.length !== 2 || itemKeys[0] !== 'type') return false;
  }
  return true;
}

type Codec = {
  validateResult(method: string, raw: unknown): { ok: true; value: unknown } | { ok: false; reason: string; message: string };
  encodeErrorCode(code: number): number;
};

/**
 * A request's cancellation, read as the AbortSignal it stands for by those that take it: boundedCall
 * (`aborted`, `reason`, an 'abort' listener) and the SDK's request for the progress-confirming ping
 * (the same). Measured in place, making an AbortController cost ~15-20 us of a relayed call's
 * ~100 us before its request went upstream; the handler still gets a real signal (boundedCall's own).
 */
class Cancellation {
  aborted = false;
  reason: unknown;
  private listeners: Array<() => void> = [];

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at !== -1) this.listeners.splice(at, 1);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }
}

export interface FastToolCallOptions {
  /** The SDK server pinned to the connection (none until the first request). */
  server(): Server | undefined;
  client: HostClient;
  session: SessionLogLevel;
  surface: ToolSurface;
  send(message: JSONRPCMessage): Promise<void>;
  onerror(error: Error): void;
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
        (outcome) => answer(server, id, outcome),
        (error: unknown) => thrown(server, id, error),
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

/** The SDK server's codec of the era it negotiated (private in the SDK; the comparison tests would see it change). */
const codecOf = (server: Server): Codec => (server as unknown as { _wireCodec(): Codec })._wireCodec();

/** A JSON-RPC error response as the SDK writes one (the code through its codec). */
function errorResponse(server: Server, id: string | number, code: number, message: string, data?: unknown): JSONRPCMessage {
  const codec = codecOf(server);
  return {
    jsonrpc: '2.0',
    id,
    error: { code: codec.encodeErrorCode(code), message, ...(data !== undefined && { data }) },
  } as JSONRPCMessage;
}

/** The SDK's error response for a handler that threw. */
function thrown(server: Server, id: string | number, error: unknown): JSONRPCMessage {
  const { code, message, data } = (error ?? {}) as { code?: unknown; message?: string; data?: unknown };
  return errorResponse(
    server,
    id,
    typeof code === 'number' && Number.isSafeInteger(code) ? code : -32603,
    message ?? 'Internal error',
    data,
  );
}

/** The response the SDK would send for `outcome` (tool-calls.ts's answer, then the SDK's result check). */
function answer(server: Server, id: string | number, outcome: CallOutcome): JSONRPCMessage {
  const failed = (code: number, message: string, data?: unknown) => errorResponse(server, id, code, message, data);
  // A relayed 2025-era call has neither (relaysPlainly); said as the SDK would say an unexpected one.
  if (outcome.refused) return failed(outcome.refused.code, outcome.refused.message, outcome.refused.data);
  if (outcome.inputRequired || outcome.remoteTask) return failed(-32603, 'Internal error');
  const result = outcome.result as unknown as Plain;
  if (unchangedBySchema(result)) return { result, jsonrpc: '2.0', id } as JSONRPCMessage;
  const checked = codecOf(server).validateResult('tools/call', result);
  if (!checked.ok) {
    return checked.reason === 'not-in-era'
      ? failed(-32603, 'No wire schema for tools/call in the resolved era')
      : failed(-32602, `Invalid tools/call result: ${checked.message}`);
  }
  return { result: checked.value, jsonrpc: '2.0', id } as JSONRPCMessage;
}
