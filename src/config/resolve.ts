// Builds the effective configuration: defaults < config file < environment < flags, validated with
// zod, with the source of every value kept for `mcphost config` and for error messages.
import path from 'node:path';
import type * as z from 'zod';
import { issueLines, type IssueLine } from '../lib/zod-issues.js';
import { coerceString, isPathSchema, objectShape, schemaAt, unknownKeys, unwrap } from '../lib/zod-introspect.js';
import { userCacheDir } from './cache-dir.js';
import { ConfigError } from './errors.js';
import type { FoundConfig } from './find.js';
import { interpolate } from './interpolate.js';
import {
  deepClone,
  describeSource,
  fillDefaultSources,
  isPlainObject,
  recordLeaves,
  setPath,
  sourceOf,
  type Source,
  type Sources,
} from './layers.js';
import { HOST_ENV, HOST_PLUGIN_KEYS, hostConfigSchema, type HostConfig } from './schema.js';

/** A value set by a command-line flag, addressed by its key path (`http.port`). */
export interface Override {
  path: string;
  value: unknown;
  flag: string;
}

export interface ResolvedConfig {
  file?: string;
  /** Where relative paths in the file are resolved from: the file's folder, else the working directory. */
  baseDir: string;
  /** Absolute: `cacheDir` from the config, else the user's cache directory (`$XDG_CACHE_HOME/mcphost`). */
  cacheDir: string;
  cwd: string;
  config: HostConfig;
  sources: Sources;
  /** Backends to serve, in order: plugin names and `servers` entries. */
  plugins: string[];
  pluginsSource: Source;
  env: NodeJS.ProcessEnv;
  overrides: Override[];
}

export interface ResolveOptions {
  found: FoundConfig;
  env: NodeJS.ProcessEnv;
  cwd: string;
  overrides?: Override[];
  /** `--plugins a,b` (the flag wins over MCPHOST_PLUGINS and the file). */
  plugins?: string[];
}

export function resolveConfig(options: ResolveOptions): ResolvedConfig {
  const { found, env, cwd } = options;
  const overrides = options.overrides ?? [];
  const sources: Sources = new Map();
  const fileSource: Source = { kind: 'file', file: found.file ?? '' };
  const value = interpolate(deepClone(found.raw), env, found.file) as Record<string, unknown>;
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
  if (!parsed.success) {
    throw configError(found.file, issueLines(parsed.error, value, [], hostConfigSchema), sources);
  }
  const config = parsed.data;
  for (const [name, section] of Object.entries(config.plugins)) {
    if (section.module) section.module = resolveFrom(sources, `plugins.${name}.module`, section.module, baseDir, cwd);
  }
  for (const [name, server] of Object.entries(config.servers)) {
    if ('cwd' in server && server.cwd) server.cwd = resolveFrom(sources, `servers.${name}.cwd`, server.cwd, baseDir, cwd);
  }
  const cacheDir = config.cacheDir ? resolveFrom(sources, 'cacheDir', config.cacheDir, baseDir, cwd) : userCacheDir(env);
  fillDefaultSources(sources, config);

  const { plugins, pluginsSource } = pickPlugins(options.plugins, env, config, fileSource);
  return { file: found.file, baseDir, cacheDir, cwd, config, sources, plugins, pluginsSource, env, overrides };
}

function pickPlugins(flag: string[] | undefined, env: NodeJS.ProcessEnv, config: HostConfig, fileSource: Source) {
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
      .filter(([, s]) => s.enabled !== false)
      .map(([n]) => n),
  ];
  return { plugins: unique(fromFile), pluginsSource: fromFile.length > 0 ? fileSource : ({ kind: 'default' } as Source) };
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}

/** Values from the file (and defaults) are relative to the config file's folder; env and flags to the cwd. */
function resolveFrom(sources: Sources, key: string, value: string, baseDir: string, cwd: string): string {
  const source = sourceOf(sources, key);
  return path.resolve(source?.kind === 'env' || source?.kind === 'flag' ? cwd : baseDir, value);
}

function configError(file: string | undefined, lines: IssueLine[], sources: Sources): ConfigError {
  const annotated = lines.map((line) => {
    const source = sourceOf(sources, line.path);
    return source && source.kind !== 'file' ? { ...line, message: `${line.message} [${describeSource(source)}]` } : line;
  });
  return new ConfigError(file ? `Invalid config in ${file}` : 'Invalid config', annotated, file);
}

export interface PluginConfigInput {
  name: string;
  schema?: z.ZodType;
  env?: Record<string, string>;
}

/**
 * Validates one plugin's section: the file's section (without the host's keys), then the plugin's
 * environment variables, then flag overrides (`plugins.<name>.<key>`). Relative paths in fields
 * marked with `configPath()` are resolved against the config file's folder when they came from the
 * file or the defaults, and against the working directory when they came from env or a flag.
 */
export function resolvePluginConfig(resolved: ResolvedConfig, plugin: PluginConfigInput): unknown {
  const prefix = ['plugins', plugin.name];
  const section = deepClone((resolved.config.plugins[plugin.name] ?? {}) as Record<string, unknown>);
  const schema = plugin.schema;
  // A host key the plugin also declares (pob's `timeoutMs`) is given to the plugin too.
  const declared = objectShape(schema) ?? {};
  for (const key of HOST_PLUGIN_KEYS) if (!(key in declared)) delete section[key];
  if (!schema) {
    const extra = Object.keys(section);
    if (extra.length === 0) return {};
    throw configError(
      resolved.file,
      extra.map((k) => ({ path: [...prefix, k].join('.'), message: `unknown key (plugin ${plugin.name} takes no settings)` })),
      resolved.sources,
    );
  }
  for (const [key, name] of Object.entries(plugin.env ?? {})) {
    const text = resolved.env[name];
    if (text === undefined || text === '') continue;
    const keyPath = key.split('.');
    setPath(section, keyPath, coerceString(schemaAt(schema, keyPath), text));
    resolved.sources.set([...prefix, ...keyPath].join('.'), { kind: 'env', name });
  }
  for (const o of resolved.overrides.filter((o) => o.path.startsWith(`${prefix.join('.')}.`))) {
    const keyPath = o.path.split('.').slice(2);
    const coerced = typeof o.value === 'string' ? coerceString(schemaAt(schema, keyPath), o.value) : o.value;
    setPath(section, keyPath, coerced);
    resolved.sources.set(o.path, { kind: 'flag', name: o.flag });
  }
  const lines: IssueLine[] = unknownKeys(schema, section).map((u) => ({
    path: [...prefix, ...u.path].join('.'),
    message: `unknown key (known keys: ${u.known.join(', ') || 'none'})`,
  }));
  const parsed = schema.safeParse(section, { reportInput: true });
  if (!parsed.success)
    lines.push(...issueLines(parsed.error, section, prefix, schema).filter((l) => !lines.some((u) => u.path === l.path)));
  if (lines.length > 0) throw configError(resolved.file, lines, resolved.sources);
  const out = parsed.data;
  fillDefaultSources(resolved.sources, out, prefix);
  resolvePaths(schema, out, [], prefix, resolved);
  return out;
}

function resolvePaths(schema: unknown, value: unknown, at: string[], prefix: string[], resolved: ResolvedConfig): void {
  if (!isPlainObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const childSchema = schemaAt(schema, [key]);
    if (childSchema === undefined) continue;
    if (typeof child === 'string' && child !== '' && isPathSchema(childSchema)) {
      value[key] = resolveFrom(resolved.sources, [...prefix, ...at, key].join('.'), child, resolved.baseDir, resolved.cwd);
    } else if (isPlainObject(child) && unwrap(childSchema)) {
      resolvePaths(childSchema, child, [...at, key], prefix, resolved);
    }
  }
}
