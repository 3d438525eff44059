// The host in-process: the same path as `mcphost serve` / `mcphost call` (config → loader →
// registry → MCP server) without a child process. The official SDK client talks to it over the
// SDK's in-memory transport. Use these for tool-level tests; keep the real binary for one smoke per
// plugin and transport (test/e2e).
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { openHost } from '../../src/app/open.js';
import { runOneShot, type OneShotRequest } from '../../src/app/one-shot.js';
import type { CallOutcome } from '../../src/registry/result.js';
import type { Registry } from '../../src/registry/registry.js';
import { createServer } from '../../src/server/mcp-server.js';
import { HostClient } from '../../src/registry/clients.js';
import { attachListChanged } from '../../src/server/notify.js';
import { isolatedEnv } from './cli.js';

export interface HostOptions {
  /** Working directory (where .mcprc is searched for, and relative paths resolve). */
  cwd: string;
  plugins?: string[];
  /** The environment the host sees (default: an isolated copy of this process's, HOME = cwd). */
  env?: Record<string, string | undefined>;
  configFile?: string;
  /** Captures the host's log lines (default: dropped). */
  writeLog?: (line: string) => void;
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

/** One host in-process with any number of clients, each its own (as separate stdio connections are). */
export async function hostInProcess(options: HostOptions): Promise<{
  registry: Registry;
  connect(era?: 'legacy' | 'modern'): Promise<Client>;
  close(): Promise<void>;
}> {
  const { registry } = await openHost({
    cwd: options.cwd,
    env: hostEnv(options),
    plugins: options.plugins,
    configFile: options.configFile,
    writeLog: options.writeLog ?? (() => undefined),
    serving: true,
  });
  const open: Array<() => Promise<void>> = [];
  return {
    registry,
    async connect(era = 'legacy') {
      const hostClient = new HostClient('stdio');
      const server = createServer(registry, { name: 'mcphost', version: '0.0.0-test' }, { client: hostClient });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      // Each session is told of list changes, as every stdio connection of `mcphost serve` is.
      const detach = attachListChanged(registry, server);
      await server.connect(serverSide);
      const client = new Client(
        { name: 'mcphost-test', version: '1.0.0' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
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
