// What `mcphost config`, `doctor` and `plugins` report: each backend loaded on its own so one
// broken plugin is reported next to the others instead of hiding them.
import type { HealthReport } from '../backend/types.js';
import { UnavailableError } from '../backend/errors.js';
import { PluginLoadError } from '../loader/errors.js';
import { ConfigError } from '../config/errors.js';
import { describeSource, isPlainObject, setPath, sourceOf } from '../config/layers.js';
import { HOST_PLUGIN_KEYS } from '../config/schema.js';
import { builtinNames, BUILTIN_ROOT, builtinEntry } from '../loader/builtins.js';
import { importOutside } from '../loader/host-modules.js';
import type { InstalledPackage } from '../loader/installed.js';
import { configureBackend, importBackend, type LoadedBackend } from '../loader/load.js';
import { Registry } from '../registry/registry.js';
import { loaderOptions, openConfig, type OpenedConfig, type OpenOptions } from './open.js';
import { pathToFileURL } from 'node:url';
import { notTrustedText } from '../config/trust.js';
import { withheldText } from '../backend/approval.js';
import { TOKEN_HASH } from '../config/named-clients.js';
import type { ResolvedConfig } from '../config/resolve.js';

/** The config file's standing, as `config` and `doctor` show it. */
interface TrustReport {
  file: string;
  trusted: boolean;
  /** explicit (--config), user (your own config folder), approved, trust-all, not-approved, changed. */
  reason: string;
  /** For a file that is not trusted: what to run, and what of it did not apply. */
  hint?: string;
}

function trustReport(resolved: ResolvedConfig, loaded: ReadonlyArray<LoadedBackend | undefined> = []): TrustReport | undefined {
  const { trust } = resolved;
  if (!trust) return undefined;
  if (trust.trusted) return { file: trust.file, trusted: true, reason: trust.reason };
  const settings = loaded.flatMap((l) => l?.withheld ?? []).map((w) => w.path);
  const notApplied = [...resolved.withheld, ...settings];
  const skipped = resolved.unread
    ? 'it is code and was not run'
    : `its servers and modules do not run${notApplied.length ? `, and ${notApplied.join(', ')} do not apply` : ''}`;
  return { file: trust.file, trusted: false, reason: trust.reason, hint: `${notTrustedText(trust)} (${skipped})` };
}

export interface PluginReport {
  name: string;
  ok: boolean;
  stage: 'load' | 'config' | 'health';
  version?: string;
  origin?: string;
  message: string;
  health?: HealthReport;
}

async function loadEach(opened: OpenedConfig, options: OpenOptions, names: string[]) {
  const lo = loaderOptions(opened, options);
  return Promise.all(
    names.map(async (name): Promise<{ name: string; loaded?: LoadedBackend; error?: Error; stage?: 'load' | 'config' }> => {
      let imported;
      try {
        imported = await importBackend(name, lo);
      } catch (error) {
        return { name, error: error as Error, stage: error instanceof ConfigError ? 'config' : 'load' };
      }
      try {
        return { name, loaded: configureBackend(imported, opened.resolved) };
      } catch (error) {
        return { name, error: error as Error, stage: error instanceof ConfigError ? 'config' : 'load' };
      }
    }),
  );
}

export interface ConfigReport {
  file?: string;
  trust?: TrustReport;
  plugins: { value: string[]; source: string };
  config: Record<string, unknown>;
  sources: Record<string, string>;
  errors: Array<{ plugin: string; stage: 'load' | 'config'; message: string }>;
}

export async function configReport(options: OpenOptions): Promise<ConfigReport> {
  const opened = await openConfig(options);
  const { resolved } = opened;
  const results = await loadEach(opened, options, resolved.plugins);
  const config = structuredClone(resolved.config) as unknown as Record<string, Record<string, unknown>>;
  for (const r of results) {
    if (!r.loaded || r.loaded.origin.kind === 'server') continue;
    const hostKeys = Object.fromEntries(
      Object.entries(resolved.config.plugins[r.name] ?? {}).filter(([k]) => (HOST_PLUGIN_KEYS as readonly string[]).includes(k)),
    );
    config.plugins[r.name] = { ...hostKeys, ...(r.loaded.config as Record<string, unknown>) };
  }
  if (config.http?.token) config.http.token = '<redacted>';
  // A client's token hash stays (it proves nothing); a value a reference brought never shows.
  for (const c of Object.values((config.http?.clients ?? {}) as Record<string, { token?: string }>)) {
    if (c.token !== undefined && !TOKEN_HASH.test(c.token)) c.token = '<redacted>';
  }
  // Headers and environment of mounted servers usually carry credentials.
  for (const server of Object.values(config.servers ?? {}) as Array<Record<string, Record<string, string> | undefined>>) {
    for (const key of ['headers', 'env']) {
      const values = server[key];
      if (values) for (const k of Object.keys(values)) values[k] = '<redacted>';
    }
    const oauth = server.oauth as Record<string, unknown> | undefined;
    if (oauth?.clientSecret) oauth.clientSecret = '<redacted>';
  }
  // Each plugin's settings carry their own sources (resolving them writes nothing into `resolved`).
  const merged = new Map(resolved.sources);
  for (const r of results) for (const [key, source] of r.loaded?.sources ?? []) merged.set(key, source);
  // A value that came from a reference is shown as written (`${env:GITHUB_TOKEN}`), never expanded
  // (unless the environment or a flag set that key instead).
  for (const [at, written] of resolved.references) {
    const key = at.startsWith('mcpServers.') ? `servers.${at.slice('mcpServers.'.length)}` : at;
    if (hasPath(config, key.split('.')) && sourceOf(merged, key)?.kind === 'file') setPath(config, key.split('.'), written);
  }
  const sources: Record<string, string> = {};
  for (const [key, source] of [...merged.entries()].sort(([a], [b]) => a.localeCompare(b))) sources[key] = describeSource(source);
  // A setting the file may not apply yet: the default stands, and the source says what to approve.
  for (const w of results.flatMap((r) => r.loaded?.withheld ?? [])) {
    sources[w.path] = `not applied: ${withheldText([w])}`;
  }
  return {
    file: resolved.file,
    trust: trustReport(
      resolved,
      results.map((r) => r.loaded),
    ),
    plugins: { value: resolved.plugins, source: describeSource(resolved.pluginsSource) },
    config,
    sources,
    errors: results.filter((r) => r.error).map((r) => ({ plugin: r.name, stage: r.stage!, message: r.error!.message })),
  };
}

function hasPath(root: unknown, keyPath: readonly string[]): boolean {
  let cur = root;
  for (const key of keyPath) {
    if (!isPlainObject(cur) && !Array.isArray(cur)) return false;
    if (!Object.hasOwn(cur as object, key)) return false;
    cur = (cur as Record<string, unknown>)[key];
  }
  return true;
}

export interface DoctorReport {
  file?: string;
  trust?: TrustReport;
  ok: boolean;
  plugins: PluginReport[];
}

export async function doctorReport(options: OpenOptions): Promise<DoctorReport> {
  const opened = await openConfig(options);
  const names = opened.resolved.plugins;
  const results = await loadEach(opened, options, names);
  const reports: PluginReport[] = [];
  const loaded = results.filter((r) => r.loaded).map((r) => r.loaded!);
  const registry = loaded.length
    ? await Registry.create(loaded, { logger: opened.logger, timeouts: opened.resolved.config.timeouts })
    : undefined;
  try {
    const health = registry ? await registry.health() : {};
    for (const r of results) {
      if (r.error) {
        reports.push({ name: r.name, ok: false, stage: r.stage!, message: r.error.message });
        continue;
      }
      const h = health[r.name];
      reports.push({
        name: r.name,
        ok: h.ok,
        stage: 'health',
        version: r.loaded!.backend.version,
        origin: `${r.loaded!.origin.kind} ${r.loaded!.origin.location}`,
        message: h.message ?? (h.ok ? 'ok' : 'unhealthy'),
        health: h,
      });
    }
  } finally {
    await registry?.close();
  }
  return {
    file: opened.resolved.file,
    trust: trustReport(opened.resolved, loaded),
    ok: reports.length > 0 && reports.every((r) => r.ok),
    plugins: reports,
  };
}

/**
 * The failure a report of `config` or `doctor` stands for, the most basic first: a config error,
 * then a plugin that does not load, then a backend that is not healthy. The CLI maps it to an exit
 * code like any other failure.
 */
export function reportFailure(entries: Array<{ plugin: string; stage: PluginReport['stage']; message: string }>): Error | undefined {
  const first = (stage: PluginReport['stage']) => entries.find((e) => e.stage === stage);
  const config = first('config');
  if (config) return new ConfigError(config.message);
  const load = first('load');
  if (load) return new PluginLoadError(load.plugin, load.message);
  const health = first('health');
  return health ? new UnavailableError(`${health.plugin}: ${health.message}`) : undefined;
}

/** The failure a doctor report stands for: no plugins requested (exit 2), else as reportFailure says. */
export function doctorFailure(report: DoctorReport): Error | undefined {
  if (report.plugins.length === 0) return new PluginLoadError('', 'no plugins requested');
  return reportFailure(report.plugins.filter((p) => !p.ok).map((p) => ({ plugin: p.name, stage: p.stage, message: p.message })));
}

export interface BackendListing {
  name: string;
  kind: 'built-in' | 'installed';
  version?: string;
  description?: string;
  package?: string;
  location: string;
  error?: string;
}

/** What a backend module may export (README "Writing a backend"): a backend, or a factory of one. */
type Exports = { default?: unknown; backend?: unknown };

/** Built-in and installed backends, each imported to read its version. */
export async function listBackends(installed: InstalledPackage[], root = BUILTIN_ROOT): Promise<BackendListing[]> {
  const entries = [
    ...builtinNames(root).map((name) => ({ name, kind: 'built-in' as const, location: builtinEntry(name, root)! })),
    ...installed.map((p) => ({
      name: p.backendName,
      kind: 'installed' as const,
      location: p.entry,
      package: `${p.packageName}@${p.version}`,
    })),
  ];
  return Promise.all(
    entries.map(async (e): Promise<BackendListing> => {
      try {
        const mod = (e.kind === 'installed' ? await importOutside(e.location) : await import(pathToFileURL(e.location).href)) as Exports;
        let backend = mod.default ?? mod.backend;
        if (typeof backend === 'function') backend = await backend();
        const { version, description } = (backend ?? {}) as { version?: string; description?: string };
        return { ...e, version, description };
      } catch (error) {
        return { ...e, error: (error as Error).message };
      }
    }),
  );
}
