// The host in-process: the same path as `mcphost serve` / `mcphost call` (config → loader →
// registry → MCP server) without a child process. The official SDK client talks to it over the
// SDK's in-memory transport (2025 era), or as a stdio connection over a stream pair (2026 era, which
// the in-memory pair cannot negotiate). Use these for tool-level tests; keep the real binary for one smoke per
// plugin and transport (test/e2e).
import { Client, InMemoryTransport, type ClientOptions, type Transport } from '@modelcontextprotocol/client';
import { openHost } from '../../src/app/open.js';
import { runOneShot, type OneShotRequest } from '../../src/app/one-shot.js';
import type { InstalledPackage } from '../../src/loader/installed.js';
import type { CallOutcome } from '../../src/registry/result.js';
import type { Registry } from '../../src/registry/registry.js';
import { createServer } from '../../src/server/mcp-server.js';
import { HostClient } from '../../src/registry/clients.js';
import { attachListChanged } from '../../src/server/notify.js';
import { serveOnStdio } from '../../src/server/stdio.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { isolatedEnv } from './cli.js';
import { StreamPairTransport } from '../../src/app/loopback.js';

export interface HostOptions {
  /** Working directory (where .mcprc is searched for, and relative paths resolve). */
  cwd: string;
  plugins?: string[];
  /** The environment the host sees (default: an isolated copy of this process's, HOME = cwd). */
  env?: Record<string, string | undefined>;
  configFile?: string;
  /** Captures the host's log lines (default: dropped). */
  writeLog?: (line: string) => void;
  /** Installed plugins (what oclif reports under `mcphost plugins`). */
  installed?: InstalledPackage[];
}

export interface InProcessSession {
  client: Client;
  registry: Registry;
  close(): Promise<void>;
}

function hostEnv(options: HostOptions): NodeJS.ProcessEnv {
  return (options.env ?? isolatedEnv(options.cwd)) as NodeJS.ProcessEnv;
}

/** `mcphost serve` in-process, with an SDK client connected to it. */
export async function serveInProcess(options: HostOptions & { era?: 'legacy' | 'modern' }): Promise<InProcessSession> {
  const host = await hostInProcess(options);
  const client = await host.connect(options.era);
  return { client, registry: host.registry, close: host.close };
}

/** How a test's client is made: what it declares, and a look at its transport before it connects. */
export interface ClientSetup {
  options?: ClientOptions;
  transport?(transport: Transport): void;
}

/** One host in-process with any number of clients, each its own (as separate stdio connections are). */
export async function hostInProcess(options: HostOptions): Promise<{
  registry: Registry;
  connect(era?: 'legacy' | 'modern', setup?: ClientSetup): Promise<Client>;
  close(): Promise<void>;
}> {
  const { registry } = await openHost({
    cwd: options.cwd,
    env: hostEnv(options),
    plugins: options.plugins,
    configFile: options.configFile,
    installed: options.installed,
    writeLog: options.writeLog ?? (() => undefined),
    serving: true,
  });
  const open: Array<() => Promise<void>> = [];
  /** A 2026-era client: a stdio connection of its own (serveOnStdio over a stream pair), as `serve` gives it. */
  async function connectModern(setup: ClientSetup): Promise<Client> {
    const transport = new StreamPairTransport();
    const serving = serveOnStdio(registry, { name: 'mcphost', version: '0.0.0-test' }, silentLogger, transport.serverSide);
    const client = new Client(
      { name: 'mcphost-test', version: '1.0.0' },
      { ...setup.options, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    setup.transport?.(transport);
    await client.connect(transport);
    open.push(async () => {
      await client.close().catch(() => undefined);
      await serving.close();
    });
    return client;
  }
  return {
    registry,
    async connect(era = 'legacy', setup: ClientSetup = {}) {
      if (era === 'modern') return connectModern(setup);
      const hostClient = new HostClient('stdio');
      const server = createServer(registry, { name: 'mcphost', version: '0.0.0-test' }, { client: hostClient });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      // Each session is told of list changes, as every stdio connection of `mcphost serve` is.
      const detach = attachListChanged(registry, server);
      await server.connect(serverSide);
      const client = new Client({ name: 'mcphost-test', version: '1.0.0' }, setup.options ?? {});
      setup.transport?.(clientSide);
      await client.connect(clientSide);
      open.push(async () => {
        detach();
        await client.close().catch(() => undefined);
        await server.close().catch(() => undefined);
        hostClient.close();
      });
      return client;
    },
    async close() {
      await Promise.all(open.splice(0).map((c) => c()));
      await registry.close();
    },
  };
}

/** `mcphost call <plugin> <tool>` in-process: the outcome (result, or error kind and message). */
export function callInProcess(
  options: HostOptions & Pick<OneShotRequest, 'plugin' | 'tool' | 'args' | 'flags' | 'timeoutMs' | 'signal' | 'onProgress'>,
): Promise<CallOutcome> {
  const { cwd, configFile, writeLog, env: _env, plugins: _plugins, ...call } = options;
  return runOneShot({ cwd, env: hostEnv(options), configFile, writeLog: writeLog ?? (() => undefined), ...call });
}
