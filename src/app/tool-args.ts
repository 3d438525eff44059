// A tool's arguments from command-line flags, generated at run time from the tool's JSON Schema.
// Values are coerced per the schema (a string stays a string even when it looks numeric), arrays
// repeat the flag, objects are JSON, and unknown flags are refused with the valid ones.
import { closest } from '../kit/closest.js';
import type { JsonSchema } from '../registry/schemas.js';

export class UsageError extends Error {
  /** Set when the problem is a flag the tool does not have (the caller may know what was meant). */
  readonly unknownFlag?: string;
  constructor(message: string, options: { unknownFlag?: string } = {}) {
    super(message);
    this.name = 'UsageError';
    this.unknownFlag = options.unknownFlag;
  }
}

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
