// Turning the HUD's answers back into snapshot values: unwrapping tool results, enum names into
// { $enum, $value }, inline struct values into typed objects, and type metadata into TypeInfo.
import { ToolError } from '../../../../src/backend/index.js';
import { typeInfoSchema, type SnapshotValue, type TypeInfo } from '../format.js';
import { setOwn } from '../model.js';

/** What one explore node looks like (the HUD's shapes; unknown fields are ignored). */
export interface ExploreNode {
  name?: string;
  index?: number;
  key?: string | number | boolean;
  kind?: string;
  type?: string;
  value?: unknown;
  count?: number;
  available?: boolean;
  circular?: boolean;
  members?: ExploreNode[];
  items?: ExploreNode[];
}

const PRIMITIVES = new Set([
  'String',
  'Char',
  'Boolean',
  'Byte',
  'SByte',
  'Int16',
  'UInt16',
  'Int32',
  'UInt32',
  'Int64',
  'UInt64',
  'Single',
  'Double',
  'Decimal',
  'IntPtr',
  'UIntPtr',
  'Object',
  'null',
  'string',
  'char',
  'bool',
  'byte',
  'sbyte',
  'short',
  'ushort',
  'int',
  'uint',
  'long',
  'ulong',
  'float',
  'double',
  'decimal',
  'object',
]);

/** A primitive (or `Object`): its text is its value, not an object to explore. */
export function isPrimitiveName(name: string): boolean {
  return PRIMITIVES.has(name.startsWith('System.') && !name.slice(7).includes('.') ? name.slice(7) : name);
}

/** Type names worth an `explore type:` look-up (not primitives, generic collections or arrays). */
export function lookupWorthy(name: string | undefined): name is string {
  if (!name) return false;
  return !isPrimitiveName(name) && !name.includes('<') && !name.endsWith('[]');
}

export function isTextType(name: string | undefined): boolean {
  return name === 'String' || name === 'System.String' || name === 'string' || name === 'Char' || name === 'char';
}

/** A provider's answer as plain data: a ToolResult's structuredContent or JSON text, else the value itself. */
export function unwrapResult(result: unknown): unknown {
  if (typeof result !== 'object' || result === null || !Array.isArray((result as { content?: unknown }).content)) return result;
  const r = result as { content: Array<{ type: string; text?: string }>; structuredContent?: unknown; isError?: boolean };
  const text = r.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
  if (r.isError) throw new ToolError(text || 'the HUD returned an error', { code: 'REMOTE_ERROR' });
  if (r.structuredContent !== undefined) return r.structuredContent;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function normalizeTypeInfo(raw: unknown): TypeInfo | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const picked = Object.fromEntries(
    ['type', 'kind', 'baseType', 'attributes', 'size', 'members', 'methods', 'values']
      .filter((k) => r[k] !== undefined && r[k] !== null)
      .map((k) => [k, r[k]]),
  );
  const parsed = typeInfoSchema.safeParse(picked);
  return parsed.success ? parsed.data : undefined;
}

export function enumFrom(value: string | number, info: TypeInfo): SnapshotValue {
  const values = info.values ?? [];
  if (typeof value === 'number') {
    const name = values.find((v) => v.value === value)?.name ?? String(value);
    return { $type: info.type, $enum: name, $value: value };
  }
  let total = 0;
  for (const part of value.split(',').map((p) => p.trim())) {
    const known = values.find((v) => v.name === part);
    if (known) total |= known.value;
    else if (/^-?\d+$/.test(part)) total |= Number(part);
  }
  const single = values.find((v) => v.name === value);
  return { $type: info.type, $enum: value, $value: single ? single.value : total };
}

/** An inline struct value ({ X, Y, Z }) as a typed snapshot object, nested structs and enums included. */
export function structFrom(
  value: Record<string, unknown>,
  declared: string,
  typeOf: (name: string) => TypeInfo | undefined,
): SnapshotValue {
  const info = typeOf(declared);
  const out: Record<string, unknown> = { $type: info?.type ?? declared };
  for (const [key, v] of Object.entries(value)) {
    const memberType = info?.members?.find((m) => m.name === key)?.type;
    const memberInfo = memberType ? typeOf(memberType) : undefined;
    // A nested struct is a struct too, even when its type metadata could not be had.
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      setOwn(out, key, structFrom(v as Record<string, unknown>, memberType ?? 'System.ValueType', typeOf));
    else if (memberInfo?.kind === 'enum' && (typeof v === 'string' || typeof v === 'number')) setOwn(out, key, enumFrom(v, memberInfo));
    else setOwn(out, key, v);
  }
  return out as SnapshotValue;
}
