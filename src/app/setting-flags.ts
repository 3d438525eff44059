// `mcphost call` flags that set a plugin setting for one call (`--file` for imhex). A boolean
// setting is a switch, as in gh, npm and docker: `--writable`, `--no-writable`, and `--writable=false`
// or `--writable false` all work; other settings need a value.
import type { Override } from '../config/resolve.js';
import { kindOf, objectShape } from '../kit/zod-introspect.js';
import { kebab, UsageError, type RawFlag } from './tool-args.js';

export interface SettingFlags {
  settings: Override[];
  /** Flags that are not settings (tool parameters, or unknown). */
  remaining: RawFlag[];
}

/** The setting a flag names: `--max-bytes`/`--maxBytes`, or `--no-x` for a boolean setting `x`. */
function settingOf(keys: Map<string, boolean>, name: string): { key: string; negated: boolean } | undefined {
  for (const [key] of keys) if (key === name || kebab(key) === name) return { key, negated: false };
  if (!name.startsWith('no-')) return undefined;
  const rest = name.slice(3);
  for (const [key, isBoolean] of keys) if (isBoolean && (key === rest || kebab(key) === rest)) return { key, negated: true };
  return undefined;
}

/** Splits `flags` into overrides of `plugin`'s settings and the rest. */
export function readSettingFlags(plugin: string, configSchema: unknown, flags: readonly RawFlag[]): SettingFlags {
  const shape = objectShape(configSchema) ?? {};
  const keys = new Map(Object.entries(shape).map(([key, schema]) => [key, kindOf(schema) === 'boolean']));
  const settings: Override[] = [];
  const remaining: RawFlag[] = [];
  for (const flag of flags) {
    const found = settingOf(keys, flag.name);
    if (!found) {
      remaining.push(flag);
      continue;
    }
    const isBoolean = keys.get(found.key)!;
    if (found.negated && flag.value !== undefined) throw new UsageError(`--${flag.name} takes no value (it sets ${found.key} to false)`);
    let value = flag.value;
    if (value === undefined && isBoolean) value = found.negated ? 'false' : 'true';
    if (value === undefined) throw new UsageError(`--${flag.name} needs a value (the ${plugin} setting ${found.key})`);
    settings.push({ path: `plugins.${plugin}.${found.key}`, value, flag: `--${flag.name}` });
  }
  return { settings, remaining };
}

/** The boolean settings of a plugin (shown as `--[no-]name` in a tool's help). */
export function switchSettings(configSchema: unknown): string[] {
  return Object.entries(objectShape(configSchema) ?? {})
    .filter(([, schema]) => kindOf(schema) === 'boolean')
    .map(([key]) => key);
}
