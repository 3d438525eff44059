// Turns a plugin name into a loaded backend: a `servers` entry, else a built-in plugin, else an
// installed npm plugin, else `plugins.<name>.module` from the config. Only the requested modules
// are imported.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Backend, Logger, WithheldSetting } from '../backend/types.js';
import type { Source } from '../config/layers.js';
import { resolvePluginConfig } from '../config/plugin-config.js';
import type { Override, ResolvedConfig } from '../config/resolve.js';
import type { PluginSection, UpstreamServerConfig } from '../config/schema.js';
import { ConfigError } from '../config/errors.js';
import { builtinEntry, builtinNames, BUILTIN_ROOT } from './builtins.js';
import { checkBackend } from './contract.js';
import { NotTrustedError, PluginLoadError } from './errors.js';
import { importOutside } from './host-modules.js';
import { closest } from '../kit/closest.js';
import type { InstalledPackage } from './installed.js';

type OriginKind = 'builtin' | 'installed' | 'module' | 'server';

export interface LoadedBackend {
  /** The name it is served under (what users type in --plugins; the prefix of its tool names). */
  name: string;
  backend: Backend;
  /** The backend's validated config section. */
  config: unknown;
  /** Where each of its settings came from (`plugins.<name>.<key>` → file, env, flag or default). */
  sources: ReadonlyMap<string, Source>;
  /** The host's keys of the section (eager, timeoutMs, …). */
  section: PluginSection;
  /** Where relative paths are resolved from (the config file's folder, else the working directory). */
  configDir?: string;
  /** This backend's cache folder (`<cacheDir>/<name>`); not created until the backend writes there. */
  cacheDir?: string;
  /** Paths its settings name (configPath() values): the default roots of remote clients' file arguments. */
  paths?: string[];
  /** Its settings that decide what runs, set by a file not yet approved, and so left out of `config`. */
  withheld?: WithheldSetting[];
  origin: { kind: OriginKind; location: string };
}

export interface LoaderOptions {
  resolved: ResolvedConfig;
  installed?: InstalledPackage[];
  builtinRoot?: string;
  logger: Logger;
  /** Builds the backend for a `servers` entry (the upstream proxy); injected to keep the loader small. */
  upstream?: (name: string, server: UpstreamServerConfig) => Backend | Promise<Backend>;
}

export interface ImportedBackend {
  name: string;
  backend: Backend;
  section: PluginSection;
  origin: LoadedBackend['origin'];
  /** Set for a `servers` entry: its config is the entry itself. */
  server?: UpstreamServerConfig;
}

/** Finds and imports a backend without configuring it (so its config keys can be read first). */
export async function importBackend(name: string, options: LoaderOptions): Promise<ImportedBackend> {
  const { resolved } = options;
  // An entry of the file that cannot be used must not load with defaults instead: say why.
  const unusable = resolved.unusable.get(name);
  if (unusable) throw unusable.error;
  const section: PluginSection = resolved.config.plugins[name] ?? {};
  const server = mountedServer(name, options);
  if (server) {
    const from = resolved.imported.get(name);
    untrusted(name, from ? `${from.client}'s mcpServers.${name}` : `servers.${name}`, from ? from.trust : resolved.trust);
    if (!options.upstream) throw new PluginLoadError(name, `servers.${name}: mounting upstream servers is not available here`);
    const backend = checkBackend(await options.upstream(name, server), `servers.${name}`);
    return {
      name,
      backend,
      server,
      section: { eager: server.eager || server.prefix === false, timeoutMs: server.timeoutMs, prefix: server.prefix },
      origin: { kind: 'server', location: resolved.imported.get(name)?.file ?? `servers.${name}` },
    };
  }
  const origin = locate(name, options, section);
  if (origin.kind === 'module') untrusted(name, `plugins.${name}.module`, resolved.trust);
  let exported: unknown;
  try {
    exported = origin.kind === 'builtin' ? await import(pathToFileURL(origin.location).href) : await importOutside(origin.location);
  } catch (error) {
    throw new PluginLoadError(name, `plugin ${name}: cannot import ${origin.location}: ${(error as Error).message}`, { cause: error });
  }
  const backend = await instantiate(name, exported, origin.location);
  if (backend.name !== name && origin.kind === 'builtin') {
    throw new PluginLoadError(name, `plugin ${name}: ${origin.location} exports a backend named ${backend.name}`);
  }
  return { name, backend, section, origin };
}

/** Refuses what a file that is not trusted would start or import (its status is known; absent: no file). */
function untrusted(name: string, key: string, trust: ResolvedConfig['trust']): void {
  if (trust && !trust.trusted) throw new NotTrustedError(name, key, trust);
}

/**
 * The `servers` entry for `name`, if it is one. A server from a client's project file (.mcp.json)
 * never hides a built-in or installed plugin of the same name, and one that could not be read is
 * reported with its reason when asked for.
 */
function mountedServer(name: string, options: LoaderOptions): UpstreamServerConfig | undefined {
  const { resolved } = options;
  const imported = resolved.imported.get(name);
  if (imported && (builtinEntry(name, options.builtinRoot ?? BUILTIN_ROOT) || options.installed?.some((p) => p.backendName === name))) {
    return undefined;
  }
  if (imported?.error) {
    throw new ConfigError(`Cannot mount ${name} from ${imported.file} (${imported.client}): ${imported.error}`, [], imported.file);
  }
  return resolved.config.servers[name] as UpstreamServerConfig | undefined;
}

/**
 * Validates the backend's config section (file < environment < flag overrides); `overrides` are
 * setting flags of this one call (`mcphost call imhex … --file x`), on top of those in `resolved`.
 */
export function configureBackend(imported: ImportedBackend, resolved: ResolvedConfig, overrides: readonly Override[] = []): LoadedBackend {
  const { name, backend, section, origin } = imported;
  const dirs = { configDir: resolved.baseDir, cacheDir: path.join(resolved.cacheDir, name) };
  if (imported.server) return { name, backend, config: imported.server, sources: new Map(), section, origin, ...dirs };
  try {
    const { value, sources, paths, withheld } = resolvePluginConfig(
      resolved,
      { name, schema: backend.configSchema, env: backend.env },
      overrides,
    );
    return { name, backend, config: value, sources, section, origin, paths, withheld, ...dirs };
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new PluginLoadError(name, `plugin ${name}: config: ${(error as Error).message}`, { cause: error });
  }
}

async function loadBackend(name: string, options: LoaderOptions): Promise<LoadedBackend> {
  return configureBackend(await importBackend(name, options), options.resolved);
}

function locate(name: string, options: LoaderOptions, section: PluginSection): LoadedBackend['origin'] {
  const builtin = builtinEntry(name, options.builtinRoot ?? BUILTIN_ROOT);
  if (builtin) {
    if (section.module) options.logger.warn(`plugins.${name}.module is ignored: ${name} is a built-in plugin`);
    return { kind: 'builtin', location: builtin };
  }
  const installed = options.installed?.find((p) => p.backendName === name);
  if (installed) return { kind: 'installed', location: installed.entry };
  if (section.module) return { kind: 'module', location: section.module };
  throw new PluginLoadError(name, notFound(name, options));
}

/** What exists, the closest name when the one asked for looks like a typo of it, else how to add one. */
function notFound(name: string, options: LoaderOptions): string {
  const { config, imported } = options.resolved;
  const builtins = builtinNames(options.builtinRoot ?? BUILTIN_ROOT);
  const installedNames = (options.installed ?? []).map((p) => p.backendName);
  const modules = Object.entries(config.plugins)
    .filter(([, s]) => s.module)
    .map(([n]) => n);
  const servers = Object.keys(config.servers);
  const known = [
    `built in: ${builtins.join(', ') || 'none'}`,
    installedNames.length ? `installed: ${installedNames.join(', ')}` : '',
    modules.length ? `modules in .mcprc: ${modules.join(', ')}` : '',
    servers.length ? `servers: ${servers.join(', ')}` : '',
  ].filter(Boolean);
  const uncompiled = uncompiledSource(name, options.builtinRoot ?? BUILTIN_ROOT);
  if (uncompiled) return `plugin ${name} not found: ${uncompiled} is not compiled yet; run \`npm run build\` in the clone`;
  const [guess] = closest(name, [...builtins, ...installedNames, ...modules, ...servers, ...imported.keys()]);
  if (guess) return `plugin ${name} not found. Did you mean ${guess}? (${known.join('; ')})`;
  return (
    `plugin ${name} not found (${known.join('; ')}), and .mcprc has no plugins.${name}.module.` +
    ` Install one with \`mcphost plugins:install mcphost-plugin-${name}\` (or a folder or .tgz of one), or set plugins.${name}.module to a backend module path.`
  );
}

/** A built-in plugin's TypeScript entry in a clone whose dist/ has no build of it (a fresh copy of plugins/_template). */
function uncompiledSource(name: string, root: string): string | undefined {
  if (!/^[a-z0-9-]+$/.test(name) || path.basename(path.dirname(root)) !== 'dist') return undefined;
  const source = path.join(path.dirname(path.dirname(root)), 'plugins', name, 'index.ts');
  return existsSync(source) ? source : undefined;
}

/** The backend a module exports (default export or `backend`, a factory called), checked against the contract. */
export async function instantiate(name: string, exported: unknown, where: string): Promise<Backend> {
  const mod = exported as { default?: unknown; backend?: unknown };
  const candidate = mod.default ?? mod.backend;
  if (candidate === undefined) {
    throw new PluginLoadError(name, `plugin ${name}: ${where} has no default export (or export named \`backend\`)`);
  }
  let value: unknown = candidate;
  if (typeof candidate === 'function') {
    try {
      value = await (candidate as () => unknown)();
    } catch (error) {
      throw new PluginLoadError(name, `plugin ${name}: the backend factory in ${where} threw: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  try {
    return checkBackend(value, `plugin ${name} (${where})`);
  } catch (error) {
    throw new PluginLoadError(name, (error as Error).message, { cause: error });
  }
}

export interface LoadResult {
  loaded: LoadedBackend[];
  failures: Array<PluginLoadError | ConfigError>;
}

/** Loads every requested backend; one that fails is reported while the others load. */
export async function loadBackends(names: string[], options: LoaderOptions): Promise<LoadResult> {
  const settled = await Promise.allSettled(names.map((n) => loadBackend(n, options)));
  const loaded: LoadedBackend[] = [];
  const failures: LoadResult['failures'] = [];
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') loaded.push(s.value);
    else if (s.reason instanceof ConfigError) failures.push(s.reason.about(names[i]));
    else if (s.reason instanceof PluginLoadError) failures.push(s.reason);
    else
      failures.push(
        new PluginLoadError(names[i], `plugin ${names[i]}: ${(s.reason as Error)?.message ?? String(s.reason)}`, { cause: s.reason }),
      );
  });
  return { loaded, failures };
}
