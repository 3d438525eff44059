// One tool call: argument check, then the bounded call (bounded-call.ts), its answer checked
// against the tool's output schema, and every failure mapped to an error result (never a throw).
import type * as z from 'zod';
import type { Logger, ToolResult } from '../backend/types.js';
import { toolErrorCode } from '../backend/error-codes.js';
import { isRequestError, isToolError } from '../backend/errors.js';
import { issueLines } from '../kit/zod-issues.js';
import { boundedCall } from './bounded-call.js';
import type { HostClient } from './clients.js';
import { CancelledError, ResultTooLargeError, ShutdownError, TimeoutError } from './errors.js';
import { argumentsTooLarge, type Limits } from './limits.js';
import type { CallOptions, PublishedTool } from './published.js';
import { errorOutcome, resultError, toToolResult, type CallOutcome } from './result.js';
import { argsErrorText, checkArgs, shortLines } from './schemas.js';
import { renameInResult } from './ui-names.js';

export interface RunEnvironment {
  /** Aborted when the host shuts down. */
  shutdown: AbortSignal;
  /** The host's default tool timeout. */
  toolMs: number;
  logger: Logger;
  limits: Limits;
}

export async function runTool(
  tool: PublishedTool,
  args: unknown,
  options: CallOptions & { client: HostClient },
  env: RunEnvironment,
): Promise<CallOutcome> {
  if (env.shutdown.aborted) return errorOutcome('unavailable', 'SHUTTING_DOWN', new ShutdownError().message);
  // Counted before zod walks them: 300,000 keys would otherwise cost seconds and megabytes of errors.
  const tooLarge = argumentsTooLarge(args);
  if (tooLarge) return errorOutcome('invalid_arguments', 'INVALID_ARGUMENTS', `Invalid arguments for tool ${tool.publicName}: ${tooLarge}`);
  const checked = checkArgs(tool.def, args);
  if (!checked.ok) {
    const { shown, more } = shortLines(checked.lines);
    return errorOutcome('invalid_arguments', 'INVALID_ARGUMENTS', argsErrorText(tool.publicName, checked.lines), {
      issues: shown,
      ...(more > 0 && { moreIssues: more }),
    });
  }
  try {
    const answered = await boundedCall(
      {
        what: `tool ${tool.publicName}`,
        host: tool.host,
        timeoutMs: options.timeoutMs ?? tool.def.timeoutMs ?? tool.host.loaded.section.timeoutMs ?? env.toolMs,
        shutdown: env.shutdown,
        signal: options.signal,
        cancelled: (reason) => new CancelledError(reason),
        onProgress: options.onProgress,
        client: options.client,
        channel: options.channel,
        broker: options.broker,
        trace: options.trace,
        cap: { limits: env.limits, label: `tool ${tool.publicName}` },
      },
      (ctx) => tool.def.handler(checked.value, ctx),
      toToolResult,
    );
    if ('task' in answered) {
      const created = errorOutcome('tool_error', 'TASK', `tool ${tool.publicName} became a task, which this client cannot follow`);
      return { ...created, remoteTask: answered.task };
    }
    if ('asks' in answered) {
      const asked = errorOutcome(
        'tool_error',
        'INPUT_REQUIRED',
        `tool ${tool.publicName} needs answers from the client first (elicitation, sampling or roots), which this client cannot give`,
      );
      return { ...asked, inputRequired: answered.asks };
    }
    return checkedOutput(tool, answered.answer);
  } catch (error) {
    return failure(tool, error, env.logger);
  }
}

function checkedOutput(tool: PublishedTool, answer: ToolResult): CallOutcome {
  // A backend whose views were renamed (ui-names.ts) has its references in the result renamed too.
  const result = tool.renames ? renameInResult(answer, tool.renames) : answer;
  if (result.isError) return { result, error: resultError(result) };
  if (tool.def.output && result.structuredContent !== undefined && 'safeParse' in tool.def.output) {
    const parsed = (tool.def.output as z.ZodType).safeParse(result.structuredContent);
    if (!parsed.success) {
      const { shown, more } = shortLines(issueLines(parsed.error, result.structuredContent));
      const detail = shown.map((l) => `${l.path}: ${l.message}`).join('; ') + (more > 0 ? `; and ${more} more` : '');
      return errorOutcome(
        'invalid_output',
        'INVALID_OUTPUT',
        `tool ${tool.publicName} returned output that does not match its schema: ${detail}`,
      );
    }
  }
  return { result };
}

function failure(tool: PublishedTool, error: unknown, logger: Logger): CallOutcome {
  if (error instanceof TimeoutError) return errorOutcome('timeout', 'TIMEOUT', error.message);
  if (error instanceof CancelledError) return errorOutcome('cancelled', 'CANCELLED', `tool ${tool.publicName} was ${error.message}`);
  if (error instanceof ShutdownError) return errorOutcome('unavailable', 'SHUTTING_DOWN', error.message);
  if (error instanceof ResultTooLargeError) return errorOutcome('tool_error', 'RESULT_TOO_LARGE', error.message);
  if (isRequestError(error)) {
    const outcome = errorOutcome('refused', error.code, error.message, error.data);
    return {
      ...outcome,
      refused: { code: error.code, message: outcome.error!.message, ...(error.data !== undefined && { data: error.data }) },
    };
  }
  if (isToolError(error)) {
    // A code outside the contract's table (a plugin in plain JavaScript can throw any) is a TOOL_ERROR.
    const code = toolErrorCode(error.code);
    return errorOutcome(code === 'UNAVAILABLE' ? 'unavailable' : 'tool_error', code, error.message, error.data);
  }
  const message = error instanceof Error ? error.message : String(error);
  logger.debug(`tool ${tool.publicName} threw`, error);
  return errorOutcome('tool_error', 'TOOL_ERROR', message || `tool ${tool.publicName} failed`);
}
