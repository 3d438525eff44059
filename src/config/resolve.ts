// Builds the effective configuration: defaults < config file < environment < flags, validated with
// zod, with the source of every value kept for `mcphost config` and for error messages. The result
// is frozen: nothing that runs later (a plugin's section, a one-shot call's setting flags) writes
// into it; those resolve their own values and sources (plugin-config.ts).
import path from 'node:path';
import { issueLines } from '../kit/zod-issues.js';
import { coerceString, schemaAt } from '../kit/zod-introspect.js';
import { userCacheDir } from './cache-dir.js';
import { importClientServers, type ImportedServer } from './client-servers.js';
import type { FoundConfig } from './find.js';
import { separateEntries, type UnusableEntry } from './entries.js';
import { interpolate, type ReferenceContext } from './interpolate.js';
import {
  deepClone,
  deepFreeze,
  fillDefaultSources,
  recordLeaves,
  setPath,
  type DeepReadonly,
  type Source,
  type Sources,
} from './layers.js';
import { HOST_ENV, hostConfigSchema, WIDENING_KEYS, type HostConfig } from './schema.js';
import { configError, resolveFrom } from './sources.js';
import { plainTokens } from './named-clients.js';
import type { TrustStatus } from './trust.js';

/** A value set by a command-line flag, addressed by its key path (`http.port`). */
export interface Override {
  readonly path: string;
  readonly value: unknown;
  readonly flag: string;
}

export interface ResolvedConfig {
  readonly file?: string;
  /** Where relative paths in the file are resolved from: the file's folder, else the working directory. */
  readonly baseDir: string;
  /** Absolute: `cacheDir` from the config, else the user's cache directory (`$XDG_CACHE_HOME/mcphost`). */
  readonly cacheDir: string;
  readonly cwd: string;
  /** `servers` holds `.mcprc`'s `servers` and `mcpServers`, then the clients' project files' servers. */
  readonly config: DeepReadonly<HostConfig>;
  readonly sources: ReadonlyMap<string, Source>;
  /** Backends to serve, in order: plugin names and `servers` entries (never a client file's, which are called by name). */
  readonly plugins: string[];
  readonly pluginsSource: Source;
  readonly env: Readonly<NodeJS.ProcessEnv>;
  /** Flag overrides given when the config was opened (`plugins.<name>.*` ones apply to that plugin's section). */
  readonly overrides: readonly Override[];
  /** Servers found in MCP clients' project files, by name: where, and why one is not usable. */
  readonly imported: ReadonlyMap<string, ImportedServer>;
  /** Entries of the file's plugins, servers and mcpServers that cannot be used, by name (see entries.ts). */
  readonly unusable: ReadonlyMap<string, UnusableEntry>;
  /** Whether the file's servers, modules and widening keys apply (absent without a file). */
  readonly trust?: TrustStatus;
  /** The file is code and was not loaded, since it is not trusted. */
  readonly unread?: boolean;
  /** Keys of an untrusted file that were not applied (WIDENING_KEYS). */
  readonly withheld: readonly string[];
  /** Key paths whose value held a reference (`${env:…}`, `${file:…}`, `${cmd:…}`), as written: shown instead of the value. */
  readonly references: ReadonlyMap<string, string>;
}

export interface ResolveOptions {
  found: FoundConfig;
  env: NodeJS.ProcessEnv;
  cwd: string;
  overrides?: readonly Override[];
  /** `--plugins a,b` (the flag wins over MCPHOST_PLUGINS and the file). */
  plugins?: readonly string[];
}

export function resolveConfig(options: ResolveOptions): ResolvedConfig {
  const { found, cwd } = options;
  const env = Object.freeze({ ...options.env });
  const overrides = Object.freeze([...(options.overrides ?? [])]);
  const sources: Sources = new Map();
  const fileSource: Source = { kind: 'file', file: found.file ?? '' };
  const raw = deepClone(found.raw);
  const withheld = found.trust && !found.trust.trusted ? withhold(raw) : [];
  const references: ReferenceContext = {
    trusted: found.trust?.trusted ?? true,
    baseDir: found.file ? path.dirname(found.file) : cwd,
    written: new Map(),
    approveHint: found.trust ? `mcphost trust ${found.trust.file}` : undefined,
  };
  const entries = separateEntries(raw, env, found.file, references);
  const value = interpolate(raw, env, found.file, [], references) as Record<string, unknown>;
  Object.assign(value, entries.sections);
  recordLeaves(sources, value, [], fileSource);
  sources.delete('');

  for (const [key, name] of Object.entries(HOST_ENV)) {
    const text = env[name];
    if (text === undefined || text === '') continue;
    const keyPath = key.split('.');
    setPath(value, keyPath, coerceString(schemaAt(hostConfigSchema, keyPath), text));
    sources.set(key, { kind: 'env', name });
  }
  for (const o of overrides.filter((o) => !o.path.startsWith('plugins.'))) {
    const keyPath = o.path.split('.');
    const coerced = typeof o.value === 'string' ? coerceString(schemaAt(hostConfigSchema, keyPath), o.value) : o.value;
    setPath(value, keyPath, coerced);
    sources.set(o.path, { kind: 'flag', name: o.flag });
  }

  const baseDir = found.file ? path.dirname(found.file) : cwd;
  const parsed = hostConfigSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw configError(found.file, issueLines(parsed.error, value, [], hostConfigSchema), sources);
  const { mcpServers, ...config } = parsed.data;
  // Named clients and the servers of MCP clients' project files are checked only when there are any.
  const plain = Object.keys(config.http.clients).length > 0 ? plainTokens(config.http.clients, references.written!) : [];
  if (plain.length > 0) throw configError(found.file, plain, sources);
  mergeMcpServers(config, mcpServers ?? {}, sources, found.file);
  for (const [name, section] of Object.entries(config.plugins)) {
    if (section.module) section.module = resolveFrom(sources, `plugins.${name}.module`, section.module, baseDir, cwd);
  }
  for (const [name, server] of Object.entries(config.servers)) {
    if ('cwd' in server && server.cwd) server.cwd = resolveFrom(sources, `servers.${name}.cwd`, server.cwd, baseDir, cwd);
  }
  const cacheDir = config.cacheDir ? resolveFrom(sources, 'cacheDir', config.cacheDir, baseDir, cwd) : userCacheDir(env);
  fillDefaultSources(sources, config);
  const imported = found.clients?.length ? importClientServers(found.clients, config, sources, env) : new Map<string, ImportedServer>();

  const { plugins, pluginsSource } = pickPlugins(options.plugins, env, config, imported, fileSource, entries.unusable);
  if (config.audit.file) config.audit.file = resolveFrom(sources, 'audit.file', config.audit.file, baseDir, cwd);
  if (config.files.roots) config.files.roots = config.files.roots.map((r, i) => resolveFrom(sources, `files.roots.${i}`, r, baseDir, cwd));
  const trusted = { trust: found.trust, unread: found.unread, withheld };
  return deepFreeze({
    file: found.file,
    baseDir,
    cacheDir,
    cwd,
    config,
    sources,
    plugins,
    pluginsSource,
    env,
    overrides,
    imported,
    unusable: entries.unusable,
    references: references.written!,
    ...trusted,
  });
}

/** Removes the widening keys from an untrusted file's value; answers which were there. */
function withhold(raw: Record<string, unknown>): string[] {
  const removed: string[] = [];
  for (const key of WIDENING_KEYS) {
    const [section, name] = key.split('.');
    const holder = raw[section];
    if (holder && typeof holder === 'object' && !Array.isArray(holder) && name in holder) {
      delete (holder as Record<string, unknown>)[name];
      removed.push(key);
    }
  }
  return removed;
}

/** `mcpServers` (the clients' name for it) joins `servers`; one name in both is an error naming both. */
function mergeMcpServers(config: HostConfig, mcpServers: HostConfig['servers'], sources: Sources, file: string | undefined) {
  const clashes = Object.keys(mcpServers).filter((name) => name in config.servers);
  if (clashes.length > 0) {
    throw configError(
      file,
      clashes.map((name) => ({ path: `mcpServers.${name}`, message: `servers.${name} is defined too; keep one of the two` })),
      sources,
    );
  }
  for (const [name, server] of Object.entries(mcpServers)) {
    config.servers[name] = server;
    for (const [key, source] of [...sources]) {
      if (key !== `mcpServers.${name}` && !key.startsWith(`mcpServers.${name}.`)) continue;
      sources.delete(key);
      sources.set(`servers.${key.slice('mcpServers.'.length)}`, source);
    }
  }
}

function pickPlugins(
  flag: readonly string[] | undefined,
  env: NodeJS.ProcessEnv,
  config: HostConfig,
  imported: ReadonlyMap<string, ImportedServer>,
  fileSource: Source,
  unusable: ReadonlyMap<string, UnusableEntry>,
) {
  if (flag && flag.length > 0) return { plugins: unique(flag), pluginsSource: { kind: 'flag', name: '--plugins' } as Source };
  const fromEnv = env.MCPHOST_PLUGINS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (fromEnv && fromEnv.length > 0) return { plugins: unique(fromEnv), pluginsSource: { kind: 'env', name: 'MCPHOST_PLUGINS' } as Source };
  const fromFile = [
    ...Object.entries(config.plugins)
      .filter(([, s]) => s.enabled !== false)
      .map(([n]) => n),
    ...Object.entries(config.servers)
      .filter(([n, s]) => s.enabled !== false && !imported.has(n))
      .map(([n]) => n),
    // Listed so that whatever uses them says why they cannot be used.
    ...[...unusable.values()].filter((u) => !u.disabled).map((u) => u.name),
  ];
  return { plugins: unique(fromFile), pluginsSource: fromFile.length > 0 ? fileSource : ({ kind: 'default' } as Source) };
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
