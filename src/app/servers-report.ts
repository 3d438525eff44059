// What `mcphost servers` reports: every `servers` entry of .mcprc, connected once to see its state
// (connected, or down with the last error), its tool count and the process or URL behind it.
import type { OpenOptions } from './open.js';
import { openConfig } from './open.js';
import { configureBackend, importBackend, type LoadedBackend } from '../loader/load.js';
import { Registry } from '../registry/registry.js';
import type { UpstreamStatus } from '../upstream/client.js';
import { createUpstreamBackend, upstreamTarget } from '../upstream/backend.js';

export interface ServerReport {
  name: string;
  enabled: boolean;
  transport: 'stdio' | 'http';
  target: string;
  state: UpstreamStatus['state'] | 'disabled' | 'invalid';
  tools?: number;
  message: string;
  status?: UpstreamStatus;
}

export interface ServersReport {
  file?: string;
  servers: ServerReport[];
}

export async function serversReport(options: OpenOptions & { names?: string[] }): Promise<ServersReport> {
  const { resolved, logger } = await openConfig(options);
  const entries = Object.entries(resolved.config.servers).filter(([name]) => !options.names?.length || options.names.includes(name));
  const reports = new Map<string, ServerReport>();
  const loaded: LoadedBackend[] = [];
  for (const [name, server] of entries) {
    const target = upstreamTarget(server);
    const base = {
      name,
      enabled: server.enabled !== false,
      transport: target.kind,
      target: target.kind === 'http' ? target.url : [target.command, ...(target.args ?? [])].join(' '),
    };
    if (server.enabled === false && !options.names?.includes(name)) {
      reports.set(name, { ...base, state: 'disabled', message: `disabled (servers.${name}.enabled is false)` });
      continue;
    }
    reports.set(name, { ...base, state: 'idle', message: '' });
    const imported = await importBackend(name, {
      resolved,
      logger,
      upstream: (n, s) => createUpstreamBackend(n, s, resolved.env),
    });
    loaded.push(configureBackend(imported, resolved));
  }
  if (loaded.length > 0) {
    const registry = await Registry.create(loaded, { logger, timeouts: resolved.config.timeouts });
    try {
      const health = await registry.health();
      for (const { name } of loaded) {
        const h = health[name];
        const status = h.detail as (UpstreamStatus & { tools?: number }) | undefined;
        const report = reports.get(name)!;
        Object.assign(report, {
          state: status?.state ?? (h.ok ? 'connected' : 'down'),
          message: h.message ?? '',
          ...(status?.tools !== undefined && { tools: status.tools }),
          ...(status && { status }),
        });
      }
    } finally {
      await registry.close();
    }
  }
  return { file: resolved.file, servers: [...reports.values()] };
}
