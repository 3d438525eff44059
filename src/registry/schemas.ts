// JSON Schemas published in `tools/list` and the argument check that runs before every handler.
import * as z from 'zod';
import type { JsonSchemaInput, ToolDef } from '../backend/types.js';
import { isZod4Schema, unknownKeys } from '../kit/zod-introspect.js';
import { formatIssueLines, issueLines, type IssueLine } from '../kit/zod-issues.js';
import { capText, firstOf } from './limits.js';

export type JsonSchema = Record<string, unknown>;

const cache = new WeakMap<object, JsonSchema>();

export function toJsonSchema(schema: z.ZodType | JsonSchemaInput, io: 'input' | 'output'): JsonSchema {
  const hit = cache.get(schema);
  if (hit) return hit;
  let out: JsonSchema;
  if (isZod4Schema(schema)) {
    out = z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  } else {
    out = (schema as JsonSchemaInput).jsonSchema;
  }
  cache.set(schema, out);
  return out;
}

/** MCP wants an object at the root of `inputSchema`. */
export function inputJsonSchema(tool: ToolDef): JsonSchema {
  const schema = toJsonSchema(tool.input, 'input');
  return schema.type === 'object' ? schema : { type: 'object', ...schema };
}

export type ArgsCheck = { ok: true; value: unknown } | { ok: false; lines: IssueLine[] };

/** Parses arguments with the tool's zod schema, also reporting keys a plain object would drop. */
export function checkArgs(tool: ToolDef, args: unknown): ArgsCheck {
  if (!isZod4Schema(tool.input)) return checkRequired((tool.input as JsonSchemaInput).jsonSchema, args ?? {});
  const schema = tool.input as z.ZodType;
  const value = args ?? {};
  const lines: IssueLine[] = unknownKeys(schema, value).map((u) => ({
    path: u.path.join('.'),
    message: `unknown argument (valid: ${u.known.join(', ') || 'none'})`,
  }));
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success) lines.push(...issueLines(parsed.error, value, [], schema));
  return lines.length > 0 ? { ok: false, lines } : { ok: true, value: parsed.data };
}

/**
 * A JSON Schema (a mounted server's tool) is the server's to enforce: only what any conforming
 * server refuses is checked here, a property the root's `required` lists that is missing, so the
 * caller hears "required" as a bad argument (exit 1) before a round trip, whatever the server answers.
 */
function checkRequired(schema: JsonSchema | undefined, value: unknown): ArgsCheck {
  const required = Array.isArray(schema?.required) ? (schema.required as unknown[]).filter((k): k is string => typeof k === 'string') : [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: true, value };
  const missing = required.filter((key) => (value as Record<string, unknown>)[key] === undefined);
  if (missing.length === 0) return { ok: true, value };
  return { ok: false, lines: missing.map((key) => ({ path: key, message: 'required (missing)' })) };
}

/** The first issue lines, each cut short, and how many were left out. */
export function shortLines(lines: IssueLine[]): { shown: IssueLine[]; more: number } {
  const { shown, more } = firstOf(lines);
  return { shown: shown.map((l) => ({ path: capText(l.path, 200), message: capText(l.message, 500) })), more };
}

export function argsErrorText(publicName: string, lines: IssueLine[]): string {
  const { shown, more } = shortLines(lines);
  const rest = more > 0 ? `\n- … and ${more.toLocaleString('en')} more` : '';
  return `Invalid arguments for tool ${publicName}:\n${formatIssueLines(shown).replace(/^/gm, '- ')}${rest}`;
}
