// The three meta-tools of the discover mode. Their schemas are written small on purpose: they are
// the whole of what a client's context holds of the host's tools (with the pinned ones).
import * as z from 'zod';
import type { ToolResult } from '../backend/types.js';
import { errorOutcome, type CallOutcome } from '../registry/result.js';
import { argsErrorText, checkArgs, shortLines } from '../registry/schemas.js';
import type { ToolDef } from '../backend/types.js';
import type { ListedTool } from './listing.js';

export const FIND_TOOLS = 'mcphost_find_tools';
export const DESCRIBE_TOOL = 'mcphost_describe_tool';
export const CALL_TOOL = 'mcphost_call_tool';
export const META_NAMES: ReadonlySet<string> = new Set([FIND_TOOLS, DESCRIBE_TOOL, CALL_TOOL]);

export const DEFAULT_FIND_LIMIT = 8;

export const findInput = z.strictObject({
  query: z.string().min(1).max(2000),
  limit: z.number().int().min(1).max(50).optional(),
});
export const describeInput = z.strictObject({ name: z.string().min(1).max(200) });
export const callInput = z.strictObject({
  name: z.string().min(1).max(200),
  arguments: z.record(z.string(), z.unknown()).optional(),
});

/** How the meta-tools are listed (hand-written JSON Schema: the shortest that says everything). */
export const META_TOOLS: ListedTool[] = [
  {
    name: FIND_TOOLS,
    description:
      "Search this host's tools (every backend) by what you want to do, in plain words. Answers {tools: [{name, title, description, score}]}, best first, one line each. Then use mcphost_describe_tool and mcphost_call_tool.",
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'the task, e.g. "hexdump of a file"' },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: `default ${DEFAULT_FIND_LIMIT}` },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: DESCRIBE_TOOL,
    description: "A tool's full definition: description, inputSchema, outputSchema, annotations.",
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: CALL_TOOL,
    description: "Calls a tool by name with its arguments; answers exactly the tool's own result.",
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string' }, arguments: { type: 'object' } },
      required: ['name'],
    },
  },
];

/** The arguments after the meta-tool's own check, or the error result to answer. */
export function metaArgs<T>(name: string, schema: z.ZodType<T>, args: unknown): { value: T } | { outcome: CallOutcome } {
  const checked = checkArgs({ input: schema } as unknown as ToolDef, args);
  if (checked.ok) return { value: checked.value as T };
  const { shown, more } = shortLines(checked.lines);
  return {
    outcome: errorOutcome('invalid_arguments', 'INVALID_ARGUMENTS', argsErrorText(name, checked.lines), {
      issues: shown,
      ...(more > 0 && { moreIssues: more }),
    }),
  };
}

/** A meta-tool's answer: JSON text plus the same value as structured content. */
export function jsonOutcome(value: Record<string, unknown>): CallOutcome {
  const result: ToolResult = { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
  return { result };
}

/** The error a meta-tool answers for a name no tool has. */
export function unknownToolOutcome(name: string, hint: string[]): CallOutcome {
  const shown = name.length > 200 ? `${name.slice(0, 200)}…` : name;
  const did = hint.length ? ` Did you mean ${hint.join(', ')}?` : '';
  return errorOutcome(
    'invalid_arguments',
    'UNKNOWN_TOOL',
    `No tool is named ${JSON.stringify(shown)}.${did} Find tools with ${FIND_TOOLS}.`,
  );
}
