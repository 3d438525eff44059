// What the words after `mcphost call <plugin> <tool>` mean, all of it here: each flag is a setting of
// the plugin (`--file` for imhex: plugins.imhex.file for this call) or a parameter of the tool; then
// `--args` JSON and arguments given as a value join them. A tool's flags come from its JSON Schema
// (built only for the tool called): values are coerced per the schema (a string stays a string even
// when it looks numeric), arrays repeat the flag, objects are JSON, and unknown flags are refused with
// the valid ones. A boolean setting is a switch, as in gh, npm and docker: `--writable`,
// `--no-writable`, `--writable=false` and `--writable false` all work; other settings need a value.
// Two steps, because the plugin is configured with its settings before its tools (and their schemas)
// exist: readSettingFlags, then callArguments; checkSettingClashes in between refuses a plugin whose
// setting and parameter would be the same flag.
import type { JsonSchemaInput, ToolDef } from '../../backend/types.js';
import type { Override } from '../../config/resolve.js';
import { closest } from '../../kit/closest.js';
import { isZod4Schema, kindOf, objectShape } from '../../kit/zod-introspect.js';
import { ContractError } from '../../loader/contract.js';
import type { PublishedTool } from '../../registry/published.js';
import type { JsonSchema } from '../../registry/schemas.js';
import { UsageError } from '../usage-error.js';

export interface RawFlag {
  name: string;
  value?: string;
  /** The text as typed, for messages. */
  text: string;
}

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null' | 'any';

interface ParamShape {
  name: string;
  kinds: Set<Kind>;
  enum?: unknown[];
  items?: ParamShape;
  required: boolean;
  description?: string;
  default?: unknown;
}

export function paramShapes(schema: JsonSchema): ParamShape[] {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => shapeOf(name, s, required.has(name)));
}

function shapeOf(name: string, s: JsonSchema, required: boolean): ParamShape {
  const kinds = new Set<Kind>();
  let enumValues: unknown[] | undefined;
  let items: ParamShape | undefined;
  const visit = (node: JsonSchema) => {
    if (Array.isArray(node.enum)) enumValues = [...(enumValues ?? []), ...node.enum];
    if ('const' in node) enumValues = [...(enumValues ?? []), node.const];
    const t = node.type;
    for (const k of Array.isArray(t) ? t : t ? [t] : []) kinds.add(k as Kind);
    if (node.items && typeof node.items === 'object') items = shapeOf(name, node.items as JsonSchema, false);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      if (Array.isArray(node[key])) for (const sub of node[key] as JsonSchema[]) visit(sub);
    }
  };
  visit(s);
  if (enumValues && kinds.size === 0) for (const v of enumValues) kinds.add(typeof v as Kind);
  if (kinds.size === 0) kinds.add('any');
  return { name, kinds, enum: enumValues, items, required, description: s.description as string | undefined, default: s.default };
}

export function kebab(name: string): string {
  return name
    .replace(/_/g, '-')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
}

function findParam(params: ParamShape[], flag: string): { param: ParamShape; negated: boolean } | undefined {
  for (const negated of [false, true]) {
    const wanted = negated ? flag.replace(/^no-/, '') : flag;
    if (negated && wanted === flag) continue;
    const param = params.find((p) => p.name === wanted || kebab(p.name) === wanted);
    if (param && (!negated || param.kinds.has('boolean'))) return { param, negated };
  }
  return undefined;
}

export function typeLabel(p: ParamShape): string {
  if (p.enum) return p.enum.map((v) => String(v)).join('|');
  if (p.kinds.has('array')) return `${p.items ? typeLabel(p.items) : 'value'}…`;
  return [...p.kinds].filter((k) => k !== 'null').join('|') || 'value';
}

function coerce(p: ParamShape, text: string, flag: string): unknown {
  const problem = (want: string) => new UsageError(`--${flag} expects ${want}, got ${JSON.stringify(text)}`);
  const k = p.kinds;
  let value: unknown;
  if (k.has('string') || k.has('any')) value = text;
  else if (k.has('integer') || k.has('number')) {
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n)) throw problem(k.has('integer') ? 'an integer' : 'a number');
    if (!k.has('number') && !Number.isInteger(n)) throw problem('an integer');
    value = n;
  } else if (k.has('boolean')) {
    if (!['true', 'false'].includes(text)) throw problem('true or false');
    value = text === 'true';
  } else if (k.has('object') || k.has('array')) {
    try {
      value = JSON.parse(text);
    } catch {
      throw problem('JSON');
    }
  } else if (k.has('null')) {
    if (text !== 'null') throw problem('null');
    value = null;
  } else value = text;
  if (p.enum && !p.enum.includes(value)) {
    throw new UsageError(`--${flag} must be one of ${p.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(text)}`);
  }
  return value;
}

export interface ToolFlagsResult {
  args: Record<string, unknown>;
}

/**
 * Parses the tool's flags; `flags` must not contain plugin settings any more (`settings`, the
 * plugin's setting names, are only named in the message about an unknown flag).
 */
export function parseToolFlags(flags: RawFlag[], schema: JsonSchema, describe: string, settings: readonly string[] = []): ToolFlagsResult {
  const params = paramShapes(schema);
  const args: Record<string, unknown> = {};
  for (const flag of flags) {
    const found = findParam(params, flag.name);
    if (!found) {
      const names = params.map((p) => kebab(p.name));
      const near = closest(flag.name, [...names, ...settings.map(kebab)], 1);
      const valid = names.map((n) => `--${n}`).join(', ') || 'none';
      const plugin = settings.length > 0 ? `; plugin settings: ${settings.map((k) => `--${kebab(k)}`).join(', ')}` : '';
      throw new UsageError(
        `unknown flag ${flag.text.split('=')[0]} for ${describe}${near.length ? ` (did you mean --${near[0]}?)` : ''}; valid flags: ${valid}${plugin}`,
        { unknownFlag: flag.name },
      );
    }
    const { param, negated } = found;
    if (param.kinds.has('boolean') && !param.kinds.has('string') && (flag.value === undefined || negated)) {
      if (negated && flag.value !== undefined) throw new UsageError(`--${flag.name} takes no value`);
      args[param.name] = !negated;
      continue;
    }
    if (flag.value === undefined) throw new UsageError(`--${flag.name} needs a value (${typeLabel(param)})`);
    if (param.kinds.has('array')) {
      const list = (args[param.name] as unknown[] | undefined) ?? [];
      if (flag.value.trim().startsWith('[')) {
        list.push(...(coerce({ ...param, kinds: new Set(['array']), enum: undefined }, flag.value, flag.name) as unknown[]));
      } else {
        list.push(param.items ? coerce(param.items, flag.value, flag.name) : flag.value);
      }
      args[param.name] = list;
      continue;
    }
    if (param.name in args) throw new UsageError(`--${flag.name} given twice`);
    args[param.name] = coerce(param, flag.value, flag.name);
  }
  return { args };
}

export interface CallSettings {
  /** Overrides of the plugin's settings named by flags (`--file` for imhex), for this call only. */
  settings: Override[];
  /** The flags that are not settings: the tool's (or unknown). */
  remaining: RawFlag[];
  /** The plugin's settings a flag may set (none for a mounted server), named in help and in the message about an unknown flag. */
  settingKeys: string[];
  /** Those of them that are switches (`--writable`, `--no-writable`). */
  switches: string[];
}

/** The setting a flag names: `--max-bytes`/`--maxBytes`, or `--no-x` for a boolean setting `x`. */
function settingOf(keys: Map<string, boolean>, name: string): { key: string; negated: boolean } | undefined {
  for (const [key] of keys) if (key === name || kebab(key) === name) return { key, negated: false };
  if (!name.startsWith('no-')) return undefined;
  const rest = name.slice(3);
  for (const [key, isBoolean] of keys) if (isBoolean && (key === rest || kebab(key) === rest)) return { key, negated: true };
  return undefined;
}

/**
 * Splits `flags` into overrides of `plugin`'s settings and the rest; `configSchema` is the plugin's
 * (undefined for a mounted server, whose settings are never flags).
 */
export function readSettingFlags(plugin: string, configSchema: unknown, flags: readonly RawFlag[]): CallSettings {
  const keys = new Map(Object.entries(objectShape(configSchema) ?? {}).map(([key, schema]) => [key, kindOf(schema) === 'boolean']));
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
  const settingKeys = [...keys.keys()];
  return { settings, remaining, settingKeys, switches: settingKeys.filter((key) => keys.get(key)) };
}

/** A tool's parameter names: its zod object's keys, or (a JSON Schema given as such, a mounted server's) its properties. */
function paramNames(def: ToolDef): string[] {
  if (isZod4Schema(def.input)) return Object.keys(objectShape(def.input) ?? {});
  return Object.keys(((def.input as JsonSchemaInput).jsonSchema?.properties ?? {}) as Record<string, unknown>);
}

/**
 * A setting flag would hide a tool parameter of the same name, silently: such a plugin is refused
 * when `call` loads it, naming the setting, the tools and the way out.
 */
export function checkSettingClashes(plugin: string, settings: readonly string[], tools: readonly PublishedTool[]): void {
  if (settings.length === 0) return;
  const byFlag = new Map(settings.map((s) => [kebab(s), s]));
  const clashes: string[] = [];
  for (const tool of tools) {
    for (const param of paramNames(tool.def)) {
      const setting = byFlag.get(kebab(param));
      if (setting) clashes.push(`setting ${setting} and the parameter ${param} of tool ${tool.def.name} are both --${kebab(param)}`);
    }
  }
  if (clashes.length === 0) return;
  throw new ContractError(
    `plugin ${plugin}`,
    `${clashes.join('\n')}\n(\`mcphost call\` could not tell them apart: rename the setting or the parameter)`,
  );
}

export interface GivenArguments {
  /** `--args` JSON (already read from stdin when it was `-`). */
  argsJson?: string;
  /** Arguments given as a value (in-process callers). */
  args?: Record<string, unknown>;
}

/** The call's arguments: `args` < `--args` JSON < flags (`describe` names the tool in messages). */
export function callArguments(
  given: GivenArguments,
  flags: RawFlag[],
  schema: JsonSchema,
  describe: string,
  settings: readonly string[] = [],
): Record<string, unknown> {
  let fromJson: unknown = {};
  if (given.argsJson !== undefined) {
    try {
      fromJson = JSON.parse(given.argsJson);
    } catch (error) {
      throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
    }
    if (fromJson === null || typeof fromJson !== 'object' || Array.isArray(fromJson)) throw new UsageError('--args must be a JSON object');
  }
  const { args } = parseToolFlags(flags, schema, describe, settings);
  return { ...given.args, ...(fromJson as Record<string, unknown>), ...args };
}
