// One plugin's settings: the file's section (without the host's keys), then the plugin's
// environment variables, then flag overrides (`plugins.<name>.<key>`), validated with the plugin's
// own schema. Pure: it returns the value and where each key came from, and writes nothing into the
// resolved config, so every caller (serve, call with its setting flags, `mcphost config`) gets the
// same answer whatever ran before.
import type * as z from 'zod';
import { issueLines, type IssueLine } from '../lib/zod-issues.js';
import { coerceString, isPathSchema, objectShape, schemaAt, unknownKeys, unwrap } from '../lib/zod-introspect.js';
import { deepClone, fillDefaultSources, isPlainObject, recordLeaves, setPath, type Sources } from './layers.js';
import type { Override, ResolvedConfig } from './resolve.js';
import { HOST_PLUGIN_KEYS } from './schema.js';
import { configError, resolveFrom } from './sources.js';

export interface PluginConfigInput {
  name: string;
  schema?: z.ZodType;
  env?: Record<string, string>;
}

export interface PluginConfig {
  value: unknown;
  /** Where each key under `plugins.<name>` came from (file, env, flag or default). */
  sources: Sources;
  /** The absolute paths its `configPath()` settings name (the default roots of remote clients' file arguments). */
  paths: string[];
}

/**
 * Relative paths in fields marked with `configPath()` are resolved against the config file's folder
 * when they came from the file or the defaults, and against the working directory when they came
 * from env or a flag. `extra` are flag overrides of this call only (`mcphost call … --file x`).
 */
export function resolvePluginConfig(resolved: ResolvedConfig, plugin: PluginConfigInput, extra: readonly Override[] = []): PluginConfig {
  const prefix = ['plugins', plugin.name];
  const key = prefix.join('.');
  const sources: Sources = new Map();
  // The section's own sources so far, and the rest for messages about keys above it.
  const lookup: Sources = new Map(resolved.sources);
  const section = deepClone((resolved.config.plugins[plugin.name] ?? {}) as Record<string, unknown>);
  const schema = plugin.schema;
  // A host key the plugin also declares (pob's `timeoutMs`) is given to the plugin too.
  const declared = objectShape(schema) ?? {};
  for (const k of HOST_PLUGIN_KEYS) if (!(k in declared)) delete section[k];
  if (Object.keys(section).length > 0) recordLeaves(sources, section, prefix, { kind: 'file', file: resolved.file ?? '' });
  if (!schema) {
    const extraKeys = Object.keys(section);
    if (extraKeys.length === 0) return { value: {}, sources: new Map(), paths: [] };
    throw configError(
      resolved.file,
      extraKeys.map((k) => ({ path: `${key}.${k}`, message: `unknown key (plugin ${plugin.name} takes no settings)` })),
      lookup,
    );
  }
  const set = (keyPath: string[], value: unknown, source: Parameters<Sources['set']>[1]) => {
    setPath(section, keyPath, value);
    const at = [...prefix, ...keyPath].join('.');
    for (const k of [...sources.keys()]) if (k.startsWith(`${at}.`)) sources.delete(k);
    sources.set(at, source);
    lookup.set(at, source);
  };
  for (const [settingKey, name] of Object.entries(plugin.env ?? {})) {
    const text = resolved.env[name];
    if (text === undefined || text === '') continue;
    const keyPath = settingKey.split('.');
    set(keyPath, coerceString(schemaAt(schema, keyPath), text), { kind: 'env', name });
  }
  for (const o of [...resolved.overrides, ...extra].filter((o) => o.path.startsWith(`${key}.`))) {
    const keyPath = o.path.split('.').slice(2);
    set(keyPath, typeof o.value === 'string' ? coerceString(schemaAt(schema, keyPath), o.value) : o.value, { kind: 'flag', name: o.flag });
  }
  const lines: IssueLine[] = unknownKeys(schema, section).map((u) => ({
    path: [...prefix, ...u.path].join('.'),
    message: `unknown key (known keys: ${u.known.join(', ') || 'none'})`,
  }));
  const parsed = schema.safeParse(section, { reportInput: true });
  if (!parsed.success)
    lines.push(...issueLines(parsed.error, section, prefix, schema).filter((l) => !lines.some((u) => u.path === l.path)));
  if (lines.length > 0) throw configError(resolved.file, lines, lookup);
  const value = parsed.data;
  fillDefaultSources(sources, value, prefix);
  const paths: string[] = [];
  resolvePaths(schema, value, [], prefix, resolved, sources, paths);
  return { value, sources, paths };
}

function resolvePaths(
  schema: unknown,
  value: unknown,
  at: string[],
  prefix: string[],
  resolved: ResolvedConfig,
  sources: Sources,
  paths: string[],
): void {
  if (!isPlainObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const childSchema = schemaAt(schema, [key]);
    if (childSchema === undefined) continue;
    if (typeof child === 'string' && child !== '' && isPathSchema(childSchema)) {
      value[key] = resolveFrom(sources, [...prefix, ...at, key].join('.'), child, resolved.baseDir, resolved.cwd);
      paths.push(value[key] as string);
    } else if (isPlainObject(child) && unwrap(childSchema)) {
      resolvePaths(childSchema, child, [...at, key], prefix, resolved, sources, paths);
    }
  }
}
