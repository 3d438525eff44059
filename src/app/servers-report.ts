// What `mcphost servers` reports: every `servers` entry of .mcprc, connected once to see its state
// (connected, or down with the last error), its tool count and the process or URL behind it. The
// servers of a client's project file (.mcp.json) are listed but started only when named, like
// everywhere else; nothing from a file that is not trusted is started at all.
import type { OpenOptions } from './open.js';
import { openConfig } from './open.js';
import { NotTrustedError, PluginLoadError } from '../loader/errors.js';
import { ConfigError } from '../config/errors.js';
import { BackendDownError } from './failures.js';
import { configureBackend, importBackend, type LoadedBackend } from '../loader/load.js';
import { Registry } from '../registry/registry.js';
import type { UpstreamStatus } from '../kit/mcp/client.js';
import { createUpstreamBackend, pinningFor, upstreamTarget } from '../upstream/backend.js';
import type { PinStatus } from '../upstream/pinning.js';
import { notTrustedText } from '../config/trust.js';

interface ServerReport {
  name: string;
  enabled: boolean;
  transport: 'stdio' | 'http';
  target: string;
  state: UpstreamStatus['state'] | 'disabled' | 'invalid' | 'not-trusted' | 'not-started' | 'tools-changed';
  tools?: number;
  /** Tools that are not as approved (pinTools): changed, with the difference, or new. */
  pins?: PinStatus;
  message: string;
  status?: UpstreamStatus;
}

export interface ServersReport {
  file?: string;
  servers: ServerReport[];
}

export async function serversReport(options: OpenOptions & { names?: string[] }): Promise<ServersReport> {
  const { resolved, logger } = await openConfig(options);
  const wanted = (name: string) => !options.names?.length || options.names.includes(name);
  const entries = Object.entries(resolved.config.servers).filter(([name]) => wanted(name));
  const reports = new Map<string, ServerReport>();
  for (const u of resolved.unusable.values()) {
    if (u.key.startsWith('plugins.') || !wanted(u.name) || (u.disabled && !options.names?.includes(u.name))) continue;
    const raw = (u.entry ?? {}) as { url?: unknown; command?: unknown; args?: unknown };
    const args = Array.isArray(raw.args) ? raw.args.map(String) : [];
    reports.set(u.name, {
      name: u.name,
      enabled: !u.disabled,
      transport: raw.url !== undefined ? 'http' : 'stdio',
      target: raw.url !== undefined ? String(raw.url) : [String(raw.command ?? ''), ...args].join(' '),
      state: 'invalid',
      message: u.error.lines.map((l) => `${l.path}: ${l.message}`).join('; ') || u.error.message,
    });
  }
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
    const fromClient = resolved.imported.get(name);
    const named = options.names?.includes(name) ?? false;
    if (fromClient && !named) {
      const trust = fromClient.trust && !fromClient.trust.trusted ? `; ${notTrustedText(fromClient.trust)}` : '';
      reports.set(name, {
        ...base,
        state: 'not-started',
        message: `from ${fromClient.file} (${fromClient.client}), which that client serves: not started unasked (check it with \`mcphost servers ${name}\`)${trust}`,
      });
      continue;
    }
    reports.set(name, { ...base, state: 'idle', message: '' });
    let imported;
    try {
      imported = await importBackend(name, {
        resolved,
        logger,
        upstream: (n, s) => createUpstreamBackend(n, s, resolved.env, pinningFor(n, s, resolved)),
      });
    } catch (error) {
      if (!(error instanceof NotTrustedError)) throw error;
      reports.set(name, { ...base, state: 'not-trusted', message: error.hint });
      continue;
    }
    loaded.push(configureBackend(imported, resolved));
  }
  if (loaded.length > 0) {
    const registry = await Registry.create(loaded, { logger, timeouts: resolved.config.timeouts });
    try {
      const health = await registry.health();
      for (const { name } of loaded) {
        const h = health[name];
        const status = h.detail as (UpstreamStatus & { tools?: number; pins?: PinStatus }) | undefined;
        const report = reports.get(name)!;
        const changed = status?.state === 'connected' && status.pins !== undefined;
        Object.assign(report, {
          state: changed ? 'tools-changed' : (status?.state ?? (h.ok ? 'connected' : 'down')),
          ...(status?.pins && { pins: status.pins }),
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

/**
 * The failure the report stands for (a status report like doctor's: printed either way, the exit
 * says it): a server of a file that is not trusted (exit 2), else an entry that cannot be used (3),
 * else servers that are down or whose changed tools are withheld (4). Tools withheld because they
 * changed since approval need the user as much as a server that is down.
 */
export function serversFailure(report: ServersReport): Error | undefined {
  const down = report.servers
    .filter((s) => s.state === 'down' || (s.state === 'tools-changed' && s.pins?.mode === 'block'))
    .map((s) => ({ plugin: s.name, message: s.message }));
  const untrusted = report.servers.find((s) => s.state === 'not-trusted');
  const invalid = report.servers.find((s) => s.state === 'invalid');
  if (untrusted) return new PluginLoadError(untrusted.name, `${untrusted.name}: ${untrusted.message}`);
  if (invalid) return new ConfigError(`${invalid.name}: ${invalid.message}`);
  return down.length > 0 ? new BackendDownError(down) : undefined;
}
