import { Flags } from '@oclif/core';
import type { Override } from '../config/resolve.js';
import { HostCommand, pluginsFlag } from '../cli/host-command.js';
import { CommandFailure, Exit } from '../cli/exit-codes.js';
import { openHost } from '../app/open.js';
import { createLogger } from '../lib/logger.js';
import { installShutdown } from '../server/lifecycle.js';
import { serveOnStdio } from '../server/stdio.js';
import { watchConfig } from '../app/live-config.js';

/** The shutdown deadline until the config says otherwise (timeouts.shutdownMs's default). */
const DEFAULT_SHUTDOWN_MS = 2_000;
/** What the shutdown deadline keeps, after draining HTTP requests, for the backends to stop. */
const DRAIN_RESERVE_MS = 500;

export default class Serve extends HostCommand {
  static override summary = 'Serve the chosen backends over MCP (stdio by default, or Streamable HTTP).';
  static override description =
    'stdio is for clients that spawn mcphost (Claude Desktop, Claude Code, Cursor). HTTP serves /mcp and /health on 127.0.0.1 unless --host says otherwise; a non-loopback host needs a bearer token.';
  static override examples = [
    '<%= config.bin %> serve --plugins godot,pob',
    '<%= config.bin %> serve --plugins godot,imhex --transport http --port 7010',
    'MCPHOST_TOKEN=secret <%= config.bin %> serve --transport http --host 0.0.0.0',
  ];

  static override flags = {
    plugins: pluginsFlag('to serve'),
    transport: Flags.option({ options: ['stdio', 'http'] as const, default: 'stdio', description: 'how clients connect' })(),
    host: Flags.string({ description: 'HTTP bind address (env MCPHOST_HOST; default 127.0.0.1)' }),
    port: Flags.integer({ description: 'HTTP port, 0 for any free one (env MCPHOST_PORT; default 7010)', min: 0, max: 65535 }),
    http: Flags.integer({ description: 'shorthand for --transport http --port N', min: 0, max: 65535 }),
    token: Flags.string({
      description:
        'bearer token HTTP clients must send (env MCPHOST_TOKEN); required on a non-loopback host unless http.clients or http.auth is set',
    }),
    'tool-mode': Flags.option({
      options: ['flat', 'discover'] as const,
      description:
        'flat: list every tool; discover: list three meta-tools (find, describe, call) and the pinned tools (env MCPHOST_TOOL_MODE)',
    })(),
    watch: Flags.boolean({
      default: true,
      allowNo: true,
      description: 'apply edits of the config files read (and of the approvals) while serving; --no-watch reads them once',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    const transport = flags.http !== undefined ? 'http' : flags.transport;
    const overrides: Override[] = [];
    if (flags.host !== undefined) overrides.push({ path: 'http.host', value: flags.host, flag: '--host' });
    const port = flags.http ?? flags.port;
    if (port !== undefined) overrides.push({ path: 'http.port', value: port, flag: flags.http !== undefined ? '--http' : '--port' });
    if (flags.token !== undefined) overrides.push({ path: 'http.token', value: flags.token, flag: '--token' });
    if (flags['tool-mode'] !== undefined) overrides.push({ path: 'tools.mode', value: flags['tool-mode'], flag: '--tool-mode' });

    // Signals are handled from here on: one that arrives while backends start still stops them.
    const shutdown = installShutdown({ logger: createLogger({ level: 'warn' }), deadlineMs: DEFAULT_SHUTDOWN_MS });
    const options = this.hostOptions(flags, { plugins: this.splitList(flags.plugins), overrides, serving: true });
    const { registry, logger, resolved, loaded } = await openHost(options);
    shutdown.configure({ logger, deadlineMs: resolved.config.timeouts.shutdownMs });
    await registry.checkBareNames().catch(async (error: Error) => {
      await registry.close();
      throw error;
    });
    const http = resolved.config.http;
    // The HTTP stack (the SDK's Node transport, Hono) loads only when it serves; a stdio host stays lighter.
    const httpServer = transport === 'http' ? await import('../server/http.js') : undefined;
    const clientTokens = Object.values(http.clients).some((c) => c.token !== undefined);
    if (httpServer && !httpServer.isLoopback(http.host) && !http.token && !http.auth && !clientTokens) {
      await registry.close();
      // The named clients of a file not approved yet were not applied: say so, it is why there is no token.
      const withheld = resolved.withheld.includes('http.clients')
        ? ` (http.clients of ${resolved.file} is not applied until you approve the file: mcphost trust ${resolved.file})`
        : '';
      throw new CommandFailure(
        `Refusing to serve on ${http.host} without a token${withheld}: pass --token or set MCPHOST_TOKEN (clients then send Authorization: Bearer <token>), add a named client (mcphost clients:add NAME), or set http.auth (clients sign in).`,
        Exit.USAGE,
      );
    }
    if (httpServer && http.auth && !http.auth.audience && !httpServer.isLoopback(http.host)) {
      await registry.close();
      throw new CommandFailure(
        `http.auth.audience is needed on ${http.host}: set it to the URL clients reach mcphost at (e.g. https://mcp.example.com/mcp), the audience their tokens must name.`,
        Exit.CONFIG,
      );
    }
    const info = { name: 'mcphost', version: this.config.version };
    // pino loads only when there is a trail to write.
    const auditFile = resolved.config.audit.file;
    const audit = auditFile
      ? await (await import('../audit/trail.js')).openAuditTrail(registry, { ...resolved.config.audit, file: auditFile })
      : undefined;
    void registry.startEager();
    const live = flags.watch ? watchConfig(options, registry, { resolved, loaded }, logger) : undefined;
    const closeAll = (close: () => Promise<void>) => () => {
      live?.close();
      return close()
        .then(() => registry.close())
        .then(() => audit?.close());
    };
    const names = registry.hosts.map((h) => h.name).join(', ');
    if (httpServer) {
      const serving = await httpServer.serveOnHttp(registry, info, http, logger).catch(async (error: NodeJS.ErrnoException) => {
        await registry.close();
        throw listenFailure(error, http.host, http.port) ?? error;
      });
      logger.info(`serving ${names} on ${serving.url}`);
      // The requests in flight get most of the shutdown deadline; the backends' stop, the rest.
      const shutdownMs = resolved.config.timeouts.shutdownMs;
      shutdown.ready(closeAll(() => serving.close(Math.max(shutdownMs / 2, shutdownMs - DRAIN_RESERVE_MS))));
    } else {
      const serving = serveOnStdio(registry, info, logger);
      logger.info(`serving ${names} on stdio`);
      shutdown.ready(
        closeAll(() => serving.close()),
        serving.closed,
      );
    }
    // run() returns; the open server (or stdin) keeps the process alive until shutdown.
  }
}

/** Why the port could not be bound, said with the way out; undefined for other errors. */
function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): CommandFailure | undefined {
  const where = `${host}:${port}`;
  if (error.code === 'EADDRINUSE')
    return new CommandFailure(
      `${where} is already in use (another mcphost serve?): pick a free port with --port N (or --http N, 0 for any), or stop what listens there`,
      Exit.USAGE,
    );
  if (error.code === 'EACCES')
    return new CommandFailure(
      `not allowed to listen on ${where}: ports below 1024 need privileges; pick one above with --port N`,
      Exit.USAGE,
    );
  if (error.code === 'EADDRNOTAVAIL')
    return new CommandFailure(`${host} is not an address of this machine: check --host (or http.host, MCPHOST_HOST)`, Exit.USAGE);
  return undefined;
}
