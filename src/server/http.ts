// Streamable HTTP at /mcp plus GET /health. The 2026-07-28 era is served per request; 2025-era
// clients get sessions (Mcp-Session-Id), so they receive list changes and their cancels land.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, parseJSONRPCMessage, type Server } from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import type { Logger } from '../backend/types.js';
import type { Registry } from '../registry/registry.js';
import { HostClient } from '../registry/clients.js';
import { clientAccess } from '../registry/access.js';
import { limitRefusal } from '../registry/policy-refusal.js';
import { limitedCall, tooManyRequests } from './limit-gate.js';
import { BodyTooLargeError, createGuards, readBody } from './http-guards.js';
import { createServer, type ServerInfo } from './mcp-server.js';
import { attachListChanged } from './notify.js';
import { createServices } from './services.js';
import { holdListenWatches, keepReadable, listenedResources } from './subscriptions.js';
import { paramHeaderMismatch, paramHeaders } from './param-headers.js';
import { heldElsewhere, misdirected } from './held-elsewhere.js';
import { createHealth } from './health.js';
import { createMetrics } from '../metrics/metrics.js';
import { SessionTable } from './sessions.js';
import { Drain } from './drain.js';
import { clampTimeout, messageTooLarge } from '../registry/limits.js';
import { requestId } from './stdio-transport.js';
import type { HttpAuthConfig } from '../config/schema.js';
import { callerKey, sameCaller, type Identity } from '../registry/identity.js';
import { identityInfo, identityOf, type WithIdentity } from './auth/identity-info.js';
import { createIdentify, type Identify } from './auth/identify.js';
import { clientTokens } from './auth/client-tokens.js';
import type { NamedClientConfig } from '../config/named-clients.js';
import { createResourceServer, type ResourceServer } from './auth/resource-server.js';

export { isLoopback } from './http-guards.js';

/** Sessions one caller may hold when http.maxSessionsPerClient is not set. */
const DEFAULT_SESSIONS_PER_CLIENT = 100;
/** What a refused newcomer is told to wait: busy sessions free up as their requests end. */
const SESSION_RETRY_AFTER_S = 5;

export interface HttpSettings {
  host: string;
  port: number;
  token?: string;
  allowedOrigins: string[];
  allowedHosts: string[];
  maxBodyBytes: number;
  /** A 2025-era session with nothing open for this long is closed. */
  sessionIdleMs: number;
  /** Sessions kept at once; past it, the longest idle is closed, and with none idle the newcomer is refused (503). */
  maxSessions: number;
  /** Sessions one caller may hold (default 100); past it, its own longest idle is closed, or the newcomer refused (429). */
  maxSessionsPerClient?: number;
  /**
   * Leads every session id (`<replicaId>.<uuid>`), task id and paused call's handle: a load balancer
   * routes each back to this replica by it.
   */
  replicaId?: string;
  /** Clients sign in against this OpenID Connect provider (mcphost is its resource server). */
  auth?: HttpAuthConfig;
  /** Named clients (`http.clients`): their tokens, tools and limits. */
  clients?: Readonly<Record<string, Readonly<NamedClientConfig>>>;
}

/** What tests replace: the clock (session expiry, the health cache). */
export interface HttpHooks {
  now?: () => number;
}

export interface HttpServing {
  url: string;
  port: number;
  /** 2025-era sessions open now. */
  sessionCount(): number;
  /** Finishes the requests in flight within `drainMs` (0 by default), answering the rest; then closes everything. */
  close(drainMs?: number): Promise<void>;
}

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: Server;
  client: HostClient;
}

export async function serveOnHttp(
  registry: Registry,
  info: ServerInfo,
  settings: HttpSettings,
  logger: Logger,
  hooks: HttpHooks = {},
): Promise<HttpServing> {
  const onerror = (error: Error) => logger.debug(`http: ${error.message}`);
  const services = createServices(process.env, registry.limits, settings.replicaId);
  const accessOf = clientAccess(settings.clients ?? {});
  // The 2026-07-28 era is stateless: each request is a client of its own, and its state goes with it.
  const modern = createMcpHandler(
    ({ authInfo }) => {
      const identity = identityOf(authInfo);
      const client = new HostClient('http', { identity, access: accessOf(identity), era: 'modern' });
      const server = createServer(registry, info, { client, era: 'modern', services });
      server.onclose = () => client.close(logger);
      return server;
    },
    { legacy: 'reject', onerror },
  );
  const modernNode = toNodeHandler(modern, { onerror, maxRequestBodySize: settings.maxBodyBytes });
  const perOwner = settings.maxSessionsPerClient ?? DEFAULT_SESSIONS_PER_CLIENT;
  const sessions = new SessionTable<Session>(
    { idleMs: clampTimeout(settings.sessionIdleMs), max: settings.maxSessions, perOwner, now: hooks.now },
    (id, session, why) => {
      const reason =
        why === 'idle'
          ? `idle for ${settings.sessionIdleMs} ms`
          : why === 'owner'
            ? `its caller is at ${perOwner} sessions`
            : `over ${settings.maxSessions} sessions`;
      logger.debug(`http: closing session ${id} (${reason})`);
      void session.transport.close().catch(() => undefined);
    },
  );
  const sweeper = setInterval(() => sessions.sweep(), Math.min(clampTimeout(settings.sessionIdleMs), 60_000));
  sweeper.unref();
  const health = createHealth(registry, info, { now: hooks.now });
  const metrics = createMetrics(registry, { sessions: () => sessions.size, health: health.check });
  let listeningPort = settings.port;
  const guards = createGuards({
    bindHost: settings.host,
    port: () => listeningPort,
    token: settings.token,
    allowedHosts: settings.allowedHosts,
    allowedOrigins: settings.allowedOrigins,
  });

  // Who each request is from; with http.auth, set once the port (and so the default audience) is known.
  let resourceServer: ResourceServer | undefined;
  const clients = clientTokens(settings.clients ?? {});
  let identify: Identify = createIdentify({ holdsToken: guards.holdsToken, clients });
  const guarded = settings.token !== undefined || settings.auth !== undefined || clients.any;

  // Sessions (2025 era) are told by their own instance; modern-era listeners through the handler's bus.
  const unsubscribe = registry.onListChanged((kind) => {
    if (kind === 'tools') modern.notify.toolsChanged();
    else if (kind === 'resources') modern.notify.resourcesChanged();
    else modern.notify.promptsChanged();
  });

  async function legacy(req: IncomingMessage, res: ServerResponse, body: unknown, identity: Identity): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    const id = Array.isArray(sid) ? sid[0] : sid;
    const found = id ? sessions.get(id) : undefined;
    // A session is its opener's: another caller's request names one that, for it, does not exist.
    const existing = found && sameCaller(found.client.identity, identity) ? found : undefined;
    if (existing && id) {
      // A request (or a GET stream) keeps its session from expiring until its response closes.
      res.once('close', sessions.begin(id));
      return existing.transport.handleRequest(req, res, body);
    }
    if (id) return jsonError(res, 404, -32001, `Session not found or expired: ${id} (start a new session with initialize)`);
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return jsonError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; the first request must be initialize');
    }
    const owner = callerKey(identity);
    const refused = sessions.admit(owner);
    if (refused) {
      // Every session that could make room is busy (a request or stream open): refusing the
      // newcomer for a moment is fairer than closing a session someone is using.
      res.setHeader('retry-after', String(SESSION_RETRY_AFTER_S));
      return refused === 'owner'
        ? jsonError(
            res,
            429,
            -32000,
            `Too many sessions: this client has ${perOwner} sessions open, all busy (http.maxSessionsPerClient); close one (DELETE) or retry in ${SESSION_RETRY_AFTER_S} s`,
            requestId(body),
          )
        : jsonError(
            res,
            503,
            -32000,
            `Server busy: ${settings.maxSessions} sessions are open, all busy (http.maxSessions); retry in ${SESSION_RETRY_AFTER_S} s`,
            requestId(body),
          );
    }
    const client = new HostClient('http', { identity, access: accessOf(identity), era: 'legacy' });
    const server = createServer(registry, info, { client, era: 'legacy', services });
    attachListChanged(registry, server);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => (settings.replicaId ? `${settings.replicaId}.${randomUUID()}` : randomUUID()),
      onsessioninitialized: (newId) => {
        client.session = newId;
        sessions.add(newId, { transport, server, client }, owner);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      client.close(logger);
    };
    await server.connect(transport);
    return transport.handleRequest(req, res, body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    // Public metadata (RFC 9728): a browser-based client of any origin reads it to find where to sign in.
    const prm = resourceServer?.metadataFor(pathname);
    if (prm && (req.method === 'GET' || req.method === 'HEAD')) {
      if (!guards.host(req, res)) return;
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify(prm));
      return;
    }
    if (!guards.origin(req, res)) return;
    if (pathname === '/health' && req.method === 'GET') {
      const who = guarded ? await identify(req) : undefined;
      const report = await health(!who ? 'redacted' : 'identity' in who ? 'full' : 'liveness');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(report));
      return;
    }
    if (pathname === '/metrics' && req.method === 'GET') {
      if (!(await admitted(req, res))) return;
      const text = await metrics.text();
      res.writeHead(200, { 'content-type': metrics.contentType });
      res.end(text);
      return;
    }
    if (pathname !== '/mcp') return jsonError(res, 404, -32000, `Not found: ${pathname} (the MCP endpoint is /mcp)`);
    const identity = await admitted(req, res);
    if (!identity) return;
    // Handlers of both eras see who is calling (the requestState seal binds to it).
    (req as WithIdentity).auth = identityInfo(identity);
    let body: unknown;
    if (req.method === 'POST') {
      let text: string;
      try {
        text = await readBody(req, settings.maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) return jsonError(res, 413, -32600, error.message);
        throw error;
      }
      try {
        body = JSON.parse(text);
      } catch {
        return jsonError(res, 400, -32700, 'Parse error: the body is not JSON');
      }
      if (Array.isArray(body) && body.length === 0) return jsonError(res, 400, -32600, 'Invalid Request: empty batch');
      // Counted before the SDK validates it: zod walking 300,000 keys would hold every client for seconds.
      const tooLarge = messageTooLarge(body);
      if (tooLarge) return jsonError(res, 400, -32600, `Invalid Request: ${tooLarge}`, requestId(body));
      // Valid JSON that is not a JSON-RPC message (no jsonrpc "2.0", no method, a bare 42) is an invalid request, not a parse error.
      const invalid = (Array.isArray(body) ? body : [body]).find((m) => !isJsonRpcMessage(m));
      if (invalid !== undefined) return jsonError(res, 400, -32600, 'Invalid Request: not a JSON-RPC 2.0 message', requestId(invalid));
      drain.note(res, { id: requestId(body), stream: isListen(body) });
      // A request on a known session is 2025-era by construction; only the others need classifying.
      const sid = req.headers['mcp-session-id'];
      const known = typeof sid === 'string' && sessions.has(sid);
      const modernRequest = !known && !(await isLegacyRequest(await toWebRequest(req, body)));
      // What another replica holds goes there, before this one counts or runs anything of it. A host
      // that is no replica holds everything itself: its requests skip the look (and its await).
      const holder =
        modernRequest && services.ids.replica !== undefined ? await heldElsewhere(body, identity, req.headers, services) : undefined;
      if (holder) return misdirected(res, holder, requestId(body));
      const access = accessOf(identity);
      const limited = limitedCall(body, access);
      if (limited && access) {
        const outcome = limitRefusal(access.name, limited.tool, limited.refusal);
        const client = new HostClient('http', { identity, access, era: modernRequest ? 'modern' : 'legacy' });
        if (typeof sid === 'string') client.session = sid;
        const args = (body as { params?: { arguments?: unknown } }).params?.arguments;
        registry.recordCall({
          tool: limited.tool,
          plugin: registry.listedTool(limited.tool)?.plugin ?? '',
          durationMs: 0,
          outcome,
          client,
          args,
        });
        return tooManyRequests(res, outcome.refused!, requestId(body));
      }
      if (modernRequest) {
        const mismatch = await paramMismatch(body, req);
        if (mismatch) return jsonError(res, 400, -32020, `Bad Request: ${mismatch}`, requestId(body));
        const listener = access ? new HostClient('http', { identity, access, era: 'modern' }) : undefined;
        // The stream is told of every change to what it names: a resource its policy keeps from it is taken off the list.
        const uris = listener ? await keepReadable(registry, body, listener) : listenedResources(body);
        if (uris.length > 0) {
          const ended = new Promise((resolve) => res.once('close', resolve));
          holdListenWatches(registry, uris, (uri) => modern.notify.resourceUpdated(uri), ended, logger, listener);
        }
        return modernNode(req, res, body);
      }
    }
    return legacy(req, res, body, identity);
  }

  /** The request's caller, or undefined once it has been answered with the challenge. */
  async function admitted(req: IncomingMessage, res: ServerResponse): Promise<Identity | undefined> {
    const who = await identify(req);
    if ('identity' in who) return who.identity;
    res.writeHead(who.challenge.status, who.challenge.headers);
    res.end(who.challenge.body);
    return undefined;
  }

  /** SEP-2243: a 2026-era tools/call's Mcp-Param-* headers must agree with its arguments. */
  async function paramMismatch(body: unknown, req: IncomingMessage): Promise<string | undefined> {
    const call = body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | undefined;
    if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') return undefined;
    const tool = (await registry.tools()).find((t) => t.publicName === call.params!.name);
    const declared = tool ? paramHeaders(tool.inputSchema) : [];
    return declared.length > 0 ? paramHeaderMismatch(declared, call.params.arguments, req.headers) : undefined;
  }

  const drain = new Drain();
  const http: HttpServer = createHttpServer((req, res) => {
    if (drain.draining) {
      res.setHeader('connection', 'close');
      res.setHeader('retry-after', '1');
      return jsonError(res, 503, -32000, 'mcphost is shutting down; retry on another replica or in a moment');
    }
    if (req.method === 'POST') drain.track(res);
    handle(req, res).catch((error: Error) => {
      logger.warn(`http: ${req.method} ${req.url}: ${error.message}`);
      if (!res.headersSent) jsonError(res, 500, -32603, 'Internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(settings.port, settings.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  listeningPort = port;
  const hostForUrl = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const url = `http://${hostForUrl}:${port}/mcp`;
  if (settings.auth) {
    resourceServer = createResourceServer(settings.auth, url, logger);
    identify = createIdentify({ holdsToken: guards.holdsToken, clients, resourceServer });
    logger.info(`http.auth: clients sign in at ${settings.auth.issuer}; tokens must be issued for ${resourceServer.resource}`);
  }
  return {
    url,
    port,
    sessionCount: () => sessions.size,
    async close(drainMs = 0) {
      // No new connections; idle kept-alive ones go now, busy ones once their responses end.
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      await drain.drain(drainMs, `mcphost is shutting down: the request did not finish within ${drainMs} ms`);
      unsubscribe();
      metrics.close();
      services.close();
      clearInterval(sweeper);
      await Promise.allSettled(sessions.values().map((s) => s.transport.close()));
      await modern.close?.();
      http.closeAllConnections();
      await closed;
    },
  };
}

/** A 2026-era subscriptions/listen: a stream that lasts until its client cancels it. */
function isListen(body: unknown): boolean {
  return !Array.isArray(body) && (body as { method?: unknown } | null)?.method === 'subscriptions/listen';
}

function isJsonRpcMessage(value: unknown): boolean {
  try {
    parseJSONRPCMessage(value);
    return true;
  } catch {
    return false;
  }
}

function jsonError(res: ServerResponse, status: number, code: number, message: string, id: string | number | null = null): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}
