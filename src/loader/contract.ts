// Checks that a module's export satisfies the Backend contract, and says what is wrong when not.
import * as z from 'zod';
import type { Backend } from '../backend/types.js';
import { PLUGIN_NAME, TOOL_NAME } from '../backend/names.js';
import { isZod3Schema, isZod4Schema } from '../kit/zod-introspect.js';
import { formatIssueLines, issueLines } from '../kit/zod-issues.js';

const zodSchema = (what: string) =>
  z.custom<z.ZodType>(isZod4Schema, {
    error: (issue) =>
      isZod3Schema(issue.input)
        ? `${what} is a zod 3 schema; use zod ≥ 4.2 (import * as z from 'zod')`
        : `expected ${what} to be a zod schema`,
  });

const isJsonSchemaInput = (v: unknown) =>
  typeof v === 'object' && v !== null && !('_def' in v) && typeof (v as { jsonSchema?: unknown }).jsonSchema === 'object';

const schemaOrJson = (what: string) =>
  z.custom<z.ZodType>((v) => isZod4Schema(v) || isJsonSchemaInput(v), {
    error: (issue) =>
      isZod3Schema(issue.input)
        ? `${what} is a zod 3 schema; use zod ≥ 4.2 (import * as z from 'zod')`
        : `expected ${what} to be a zod schema or { jsonSchema: {...} }`,
  });

const fn = z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function', { error: 'expected a function' });
const listing = <T extends z.ZodType>(item: T) => z.union([z.array(item), fn]);

// A view's `_meta.ui`, checked where a mistake would leave the view unrendered (the rest passes as it is).
const uiToolMeta = z.looseObject({
  ui: z
    .looseObject({
      resourceUri: z.string().startsWith('ui://', 'expected a ui:// URI (the view resource)').optional(),
      visibility: z.array(z.enum(['model', 'app'])).optional(),
    })
    .optional(),
  'ui/resourceUri': z.string().startsWith('ui://', 'expected a ui:// URI (the view resource)').optional(),
});
const resourceMeta = z.looseObject({ ui: z.looseObject({}).optional() });

const toolShape = z.looseObject({
  name: z.string().regex(TOOL_NAME, 'expected 1–128 characters from A-Z a-z 0-9 _ . -'),
  title: z.string().optional(),
  description: z.string(),
  input: schemaOrJson('input'),
  output: schemaOrJson('output').optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
  timeoutMs: z.number().int().positive().optional(),
  _meta: uiToolMeta.optional(),
  handler: fn,
});

const resourceShape = z.looseObject({ uri: z.string().min(1), name: z.string().min(1), _meta: resourceMeta.optional(), read: fn });
const templateShape = z.looseObject({
  uriTemplate: z.string().min(1),
  name: z.string().min(1),
  _meta: resourceMeta.optional(),
  read: fn,
});
const promptShape = z.looseObject({
  name: z.string().regex(TOOL_NAME, 'expected 1–128 characters from A-Z a-z 0-9 _ . -'),
  args: zodSchema('args').optional(),
  get: fn,
});

const commandShape = z.looseObject({ summary: z.string(), input: zodSchema('input'), run: fn });

const backendShape = z.looseObject({
  name: z.string().regex(PLUGIN_NAME, 'expected letters, digits, _ . - (at most 64)'),
  version: z.string().min(1),
  description: z.string(),
  configSchema: zodSchema('configSchema').optional(),
  env: z.record(z.string(), z.string()).optional(),
  tools: listing(toolShape).optional(),
  resources: listing(resourceShape).optional(),
  resourceTemplates: listing(templateShape).optional(),
  prompts: listing(promptShape).optional(),
  commands: z.record(z.string().regex(PLUGIN_NAME, 'expected letters, digits, _ . - (at most 64)'), commandShape).optional(),
  start: fn.optional(),
  stop: fn.optional(),
  health: fn.optional(),
});

export class ContractError extends Error {
  constructor(where: string, detail: string) {
    super(`${where} does not satisfy the Backend contract:\n${detail.replace(/^/gm, '  ')}`);
    this.name = 'ContractError';
  }
}

export function checkBackend(value: unknown, where: string): Backend {
  const parsed = backendShape.safeParse(value, { reportInput: true });
  if (!parsed.success) throw new ContractError(where, formatIssueLines(issueLines(parsed.error, value, [], backendShape)));
  return value as Backend;
}
