// One plugin's settings: the file's section (without the host's keys), then the plugin's
// environment variables, then flag overrides (`plugins.<name>.<key>`), validated with the plugin's
// own schema. Pure: it returns the value and where each key came from, and writes nothing into the
// resolved config, so every caller (serve, call with its setting flags, `mcphost config`) gets the
// same answer whatever ran before.
import type * as z from 'zod';
import { withheldText } from '../backend/approval.js';
import type { WithheldSetting } from '../backend/types.js';
import { issueLines, type IssueLine } from '../kit/zod-issues.js';
import { coerceString, keyMarks, objectShape, runsKind, schemaAt, unknownKeys } from '../kit/zod-introspect.js';
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
  /** Settings that decide what runs, set by a file not yet approved: left out of `value` (see BackendContext.withheld). */
  withheld: WithheldSetting[];
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
    if (extraKeys.length === 0) return { value: {}, sources: new Map(), paths: [], withheld: [] };
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
  const withheld = withholdRunning(schema, section, prefix, sources, resolved);
  const lines: IssueLine[] = unknownKeys(schema, section).map((u) => ({
    path: [...prefix, ...u.path].join('.'),
    message: `unknown key (known keys: ${u.known.join(', ') || 'none'})`,
  }));
  const parsed = schema.safeParse(section, { reportInput: true });
  if (!parsed.success) {
    // A required setting that was withheld: say why it is missing rather than that it is.
    const why = (l: IssueLine) => {
      const w = withheld.find((w) => l.path === w.path || l.path.startsWith(`${w.path}.`));
      return w ? { path: l.path, message: withheldText([w]) } : l;
    };
    lines.push(
      ...issueLines(parsed.error, section, prefix, schema)
        .filter((l) => !lines.some((u) => u.path === l.path))
        .map(why),
    );
  }
  if (lines.length > 0) throw configError(resolved.file, lines, lookup);
  const value = parsed.data;
  fillDefaultSources(sources, value, prefix);
  const paths: string[] = [];
  resolvePaths(schema, value, [], prefix, resolved, sources, paths);
  return { value, sources, paths, withheld };
}

/**
 * Takes out of `section` every setting marked as deciding what runs (programPath(), codePath(),
 * runs()) whose value came from the config file while that file is not trusted; the schema's
 * default applies instead. The environment and flags are the user's own, so what they set stays.
 */
function withholdRunning(
  schema: unknown,
  section: Record<string, unknown>,
  prefix: string[],
  sources: Sources,
  resolved: ResolvedConfig,
): WithheldSetting[] {
  const { trust, file } = resolved;
  if (!trust || trust.trusted || !file) return [];
  const reason = trust.reason === 'changed' ? 'changed' : 'not-approved';
  const out: WithheldSetting[] = [];
  const fromFile = (at: string) => [...sources].some(([k, s]) => (k === at || k.startsWith(`${at}.`)) && s.kind === 'file');
  const walk = (holder: Record<string, unknown>, at: string[]) => {
    for (const [key, child] of Object.entries(holder)) {
      const keyPath = [...at, key];
      const childSchema = schemaAt(schema, keyPath);
      if (childSchema === undefined) continue;
      const kind = runsKind(childSchema);
      const full = [...prefix, ...keyPath].join('.');
      if (kind && fromFile(full)) {
        delete holder[key];
        for (const k of [...sources.keys()]) if (k === full || k.startsWith(`${full}.`)) sources.delete(k);
        out.push({ key: keyPath.join('.'), path: full, kind, file: trust.file, reason });
      } else if (!kind && isPlainObject(child)) {
        walk(child, keyPath);
      }
    }
  };
  walk(section, []);
  return out;
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
  const marks = keyMarks(schema, value);
  for (const [key, child] of Object.entries(value)) {
    const mark = marks.get(key);
    if (!mark) continue;
    // A program named by a path (`./tools/godot`, not `godot` looked up on PATH) resolves as a path does.
    const programByPath = mark.runs === 'program' && /[/\\]/.test(String(child));
    if (typeof child === 'string' && child !== '' && (mark.path || programByPath)) {
      value[key] = resolveFrom(sources, [...prefix, ...at, key].join('.'), child, resolved.baseDir, resolved.cwd);
      // A program is not a place remote clients' file arguments may name.
      if (!programByPath) paths.push(value[key] as string);
    } else if (typeof child === 'object' && isPlainObject(child) && mark.inner) {
      resolvePaths(mark.schema, child, [...at, key], prefix, resolved, sources, paths);
    }
  }
}
