// `mcphost serve`: the host opened and served until a signal (or, on stdio, the end of stdin) stops
// it — the shutdown handler, the checks a public bind needs, the audit trail, the config watch and
// the transport, in the order they must come.
import { ConfigError } from '../config/errors.js';
import { createLogger } from '../lib/logger.js';
import { installShutdown } from '../server/lifecycle.js';
import { serveOnStdio } from '../server/stdio.js';
import { watchConfig } from './live-config.js';
import { openHost, type OpenHostOptions } from './open.js';
import { UsageError } from './usage-error.js';

/** The shutdown deadline until the config says otherwise (timeouts.shutdownMs's default). */
const DEFAULT_SHUTDOWN_MS = 2_000;
/** What the shutdown deadline keeps, after draining HTTP requests, for the backends to stop. */
const DRAIN_RESERVE_MS = 500;

export interface ServeRequest {
  transport: 'stdio' | 'http';
  /** Apply edits of the config files read (and of the approvals) while serving. */
  watch: boolean;
  /** mcphost's version, as the server introduces itself. */
  version: string;
}

/** Serves until shutdown; returns once serving (the open server or stdin keeps the process alive). */
export async function serveHost(options: OpenHostOptions, request: ServeRequest): Promise<void> {
  // Signals are handled from here on: one that arrives while backends start still stops them.
  const shutdown = installShutdown({ logger: createLogger({ level: 'warn' }), deadlineMs: DEFAULT_SHUTDOWN_MS });
  const serving = { ...options, serving: true };
  const { registry, logger, resolved, loaded } = await openHost(serving);
  shutdown.configure({ logger, deadlineMs: resolved.config.timeouts.shutdownMs });
  await registry.checkBareNames().catch(async (error: Error) => {
    await registry.close();
    throw error;
  });
  const http = resolved.config.http;
  // The HTTP stack (the SDK's Node transport, Hono) loads only when it serves; a stdio host stays lighter.
  const httpServer = request.transport === 'http' ? await import('../server/http.js') : undefined;
  const clientTokens = Object.values(http.clients).some((c) => c.token !== undefined);
  if (httpServer && !httpServer.isLoopback(http.host) && !http.token && !http.auth && !clientTokens) {
    await registry.close();
    // The named clients of a file not approved yet were not applied: say so, it is why there is no token.
    const withheld = resolved.withheld.includes('http.clients')
      ? ` (http.clients of ${resolved.file} is not applied until you approve the file: mcphost trust ${resolved.file})`
      : '';
    throw new UsageError(
      `Refusing to serve on ${http.host} without a token${withheld}: pass --token or set MCPHOST_TOKEN (clients then send Authorization: Bearer <token>), add a named client (mcphost clients:add NAME), or set http.auth (clients sign in).`,
    );
  }
  if (httpServer && http.auth && !http.auth.audience && !httpServer.isLoopback(http.host)) {
    await registry.close();
    throw new ConfigError(
      `http.auth.audience is needed on ${http.host}: set it to the URL clients reach mcphost at (e.g. https://mcp.example.com/mcp), the audience their tokens must name.`,
    );
  }
  const info = { name: 'mcphost', version: request.version };
  // pino loads only when there is a trail to write.
  const auditFile = resolved.config.audit.file;
  const audit = auditFile
    ? await (await import('../audit/trail.js')).openAuditTrail(registry, { ...resolved.config.audit, file: auditFile })
    : undefined;
  void registry.startEager();
  const live = request.watch ? watchConfig(serving, registry, { resolved, loaded }, logger) : undefined;
  const closeAll = (close: () => Promise<void>) => () => {
    live?.close();
    return close()
      .then(() => registry.close())
      .then(() => audit?.close());
  };
  const names = registry.hosts.map((h) => h.name).join(', ');
  if (httpServer) {
    const listening = await httpServer.serveOnHttp(registry, info, http, logger).catch(async (error: NodeJS.ErrnoException) => {
      await registry.close();
      throw listenFailure(error, http.host, http.port) ?? error;
    });
    logger.info(`serving ${names} on ${listening.url}`);
    // The requests in flight get most of the shutdown deadline; the backends' stop, the rest.
    const shutdownMs = resolved.config.timeouts.shutdownMs;
    shutdown.ready(closeAll(() => listening.close(Math.max(shutdownMs / 2, shutdownMs - DRAIN_RESERVE_MS))));
  } else {
    const stdio = serveOnStdio(registry, info, logger);
    logger.info(`serving ${names} on stdio`);
    shutdown.ready(
      closeAll(() => stdio.close()),
      stdio.closed,
    );
  }
}

/** Why the port could not be bound, said with the way out; undefined for other errors. */
function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): UsageError | undefined {
  const where = `${host}:${port}`;
  if (error.code === 'EADDRINUSE')
    return new UsageError(
      `${where} is already in use (another mcphost serve?): pick a free port with --port N (or --http N, 0 for any), or stop what listens there`,
    );
  if (error.code === 'EACCES')
    return new UsageError(`not allowed to listen on ${where}: ports below 1024 need privileges; pick one above with --port N`);
  if (error.code === 'EADDRNOTAVAIL')
    return new UsageError(`${host} is not an address of this machine: check --host (or http.host, MCPHOST_HOST)`);
  return undefined;
}
