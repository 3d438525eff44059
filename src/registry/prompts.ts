// Prompt arguments are strings on the wire; their list comes from the prompt's zod object schema.
import type * as z from 'zod';
import type { CallContext, InputRequiredResult, PromptDef, PromptResult } from '../backend/types.js';
import { isInputRequired } from '../backend/result.js';
import { objectShape } from '../kit/zod-introspect.js';
import { formatIssueLines, issueLines } from '../kit/zod-issues.js';
import { InvalidParamsError } from './errors.js';

export function promptArguments(def: PromptDef): Array<{ name: string; description?: string; required: boolean }> {
  const shape = def.args ? objectShape(def.args) : undefined;
  if (!shape) return [];
  return Object.entries(shape).map(([name, schema]) => ({
    name,
    description: schema.description,
    required: !schema.safeParse(undefined).success,
  }));
}

export async function runPrompt(
  prompt: { publicName: string; def: PromptDef },
  args: Record<string, string>,
  ctx: CallContext,
): Promise<PromptResult | InputRequiredResult> {
  let value: unknown = args;
  if (prompt.def.args) {
    const parsed = (prompt.def.args as z.ZodType).safeParse(args, { reportInput: true });
    if (!parsed.success) {
      throw new InvalidParamsError(
        `Invalid arguments for prompt ${prompt.publicName}:\n${formatIssueLines(issueLines(parsed.error, args)).replace(/^/gm, '- ')}`,
      );
    }
    value = parsed.data;
  }
  const result = await prompt.def.get(value, ctx);
  if (isInputRequired(result)) return result;
  if (typeof result === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: result } }] };
  return result;
}
