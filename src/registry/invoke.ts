// One tool call: argument check, lazy start, the handler raced against its timeout, the
// caller's cancellation and shutdown, progress relayed in order, and every failure mapped to an
// error result (never a throw).
import type * as z from 'zod';
import type { Logger, ProgressUpdate, ToolResult } from '../backend/types.js';
import { isRequestError, isToolError } from '../backend/errors.js';
import { isInputRequired } from '../backend/result.js';
import { asRemoteTask } from './remote-task.js';
import { issueLines } from '../lib/zod-issues.js';
import { CancelledError, ShutdownError, TimeoutError } from './errors.js';
import { argumentsTooLarge, capText, clampTimeout, MAX_RESULT_DEPTH, measure, type Limits } from './limits.js';
import { errorOutcome, resultError, toToolResult, type CallOutcome } from './result.js';
import { argsErrorText, checkArgs, shortLines } from './schemas.js';
import type { CallOptions, PublishedTool } from './registry.js';
import type { HostClient } from './clients.js';

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
  const timeoutMs = clampTimeout(options.timeoutMs ?? tool.def.timeoutMs ?? tool.host.loaded.section.timeoutMs ?? env.toolMs);
  const controller = new AbortController();
  // The handler races `aborted`, which the first of timeout, cancellation and shutdown rejects
  // here, with the reason the signal gets (no listener on the signal: one less per call).
  let stop!: (reason: Error) => void;
  const aborted = new Promise<never>((_, reject) => (stop = reject));
  aborted.catch(() => undefined);
  const abort = (reason: Error) => {
    if (controller.signal.aborted) return;
    controller.abort(reason);
    stop(reason);
  };
  const timer = setTimeout(() => abort(new TimeoutError(`tool ${tool.publicName}`, timeoutMs)), timeoutMs);
  const onCancel = () => abort(new CancelledError(options.signal?.reason));
  const onShutdown = () => abort(new ShutdownError());
  options.signal?.addEventListener('abort', onCancel, { once: true });
  env.shutdown.addEventListener('abort', onShutdown, { once: true });
  if (options.signal?.aborted) onCancel();
  let lastProgress = -Infinity;
  const progress = (update: ProgressUpdate) => {
    // Progress must increase with each notification; late or repeated reports are dropped.
    if (controller.signal.aborted || !options.onProgress || !(update.progress > lastProgress)) return;
    lastProgress = update.progress;
    options.onProgress(update.message === undefined ? update : { ...update, message: capText(update.message, 1024) });
  };
  try {
    // Cancelled (or timed out) before it started: the handler is not started at all.
    if (controller.signal.aborted) throw controller.signal.reason;
    const ctx = tool.host.callContext(controller.signal, progress, options.client, options.channel, options.broker, options.trace);
    const work =
      tool.host.state === 'running'
        ? Promise.resolve().then(() => tool.def.handler(checked.value, ctx))
        : tool.host.ensureStarted().then(() => tool.def.handler(checked.value, ctx));
    work.catch(() => undefined);
    const value = await Promise.race([work, aborted]);
    const remote = asRemoteTask(value);
    if (remote) {
      const created = errorOutcome('tool_error', 'TASK', `tool ${tool.publicName} became a task, which this client cannot follow`);
      return { ...created, remoteTask: remote };
    }
    if (isInputRequired(value)) {
      const asked = errorOutcome(
        'tool_error',
        'INPUT_REQUIRED',
        `tool ${tool.publicName} needs answers from the client first (elicitation, sampling or roots), which this client cannot give`,
      );
      return { ...asked, inputRequired: value };
    }
    const shaped = boundedResult(value, env.limits);
    if (shaped.result === undefined) return errorOutcome('tool_error', 'RESULT_TOO_LARGE', `tool ${tool.publicName}: ${shaped.oversize}`);
    const result = shaped.result;
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
  } catch (error) {
    return failure(tool, error, env.logger);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
    env.shutdown.removeEventListener('abort', onShutdown);
  }
}

function failure(tool: PublishedTool, error: unknown, logger: Logger): CallOutcome {
  if (error instanceof TimeoutError) return errorOutcome('timeout', 'TIMEOUT', error.message);
  if (error instanceof CancelledError) return errorOutcome('cancelled', 'CANCELLED', `tool ${tool.publicName} was ${error.message}`);
  if (error instanceof ShutdownError) return errorOutcome('unavailable', 'SHUTTING_DOWN', error.message);
  if (isRequestError(error)) {
    const outcome = errorOutcome('refused', error.code, error.message, error.data);
    return {
      ...outcome,
      refused: { code: error.code, message: outcome.error!.message, ...(error.data !== undefined && { data: error.data }) },
    };
  }
  if (isToolError(error)) {
    return errorOutcome(error.code === 'UNAVAILABLE' ? 'unavailable' : 'tool_error', error.code, error.message, error.data);
  }
  const message = error instanceof Error ? error.message : String(error);
  logger.debug(`tool ${tool.publicName} threw`, error);
  return errorOutcome('tool_error', 'TOOL_ERROR', message || `tool ${tool.publicName} failed`);
}

/** "result too large (N bytes, cap M): …" for an answer above the cap, else undefined. */
export function tooLargeResult(value: unknown, limits: Limits): string | undefined {
  const cap = limits.resultBytes;
  // Counting stops a little past the cap: enough to name the size of one huge string exactly.
  const stop = cap * 4;
  const { bytes, complete, depth } = measure(value, stop);
  if (depth > MAX_RESULT_DEPTH) return `result nests deeper than ${MAX_RESULT_DEPTH} levels: it cannot be sent; flatten it`;
  if (bytes <= cap) return undefined;
  const size = complete ? bytes.toLocaleString('en') : `more than ${bytes.toLocaleString('en')}`;
  return `result too large (${size} bytes, cap ${cap.toLocaleString('en')}): narrow the request (a smaller range, fewer results, a more specific query), or raise limits.resultBytes`;
}

/** A handler's value as a result, or why it is too large. The raw value is measured first, so a huge one never becomes JSON text. */
function boundedResult(
  value: unknown,
  limits: Limits,
): { result: ToolResult; oversize?: undefined } | { oversize: string; result?: undefined } {
  const raw = tooLargeResult(value, limits);
  if (raw) return { oversize: raw };
  const result = toToolResult(value);
  const shaped = tooLargeResult(result, limits);
  return shaped ? { oversize: shaped } : { result };
}
