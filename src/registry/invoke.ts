// One tool call: argument check, lazy start, the handler raced against its timeout, the
// caller's cancellation and shutdown, progress relayed in order, and every failure mapped to an
// error result (never a throw).
import type * as z from 'zod';
import type { Logger, ProgressUpdate } from '../backend/types.js';
import { isToolError } from '../backend/errors.js';
import { issueLines } from '../lib/zod-issues.js';
import { CancelledError, ShutdownError, TimeoutError } from './errors.js';
import { errorOutcome, resultError, toToolResult, type CallOutcome } from './result.js';
import { argsErrorText, checkArgs } from './schemas.js';
import type { CallOptions, PublishedTool } from './registry.js';

export interface RunEnvironment {
  /** Aborted when the host shuts down. */
  shutdown: AbortSignal;
  /** The host's default tool timeout. */
  toolMs: number;
  logger: Logger;
}

export async function runTool(tool: PublishedTool, args: unknown, options: CallOptions, env: RunEnvironment): Promise<CallOutcome> {
  if (env.shutdown.aborted) return errorOutcome('unavailable', 'SHUTTING_DOWN', new ShutdownError().message);
  const checked = checkArgs(tool.def, args);
  if (!checked.ok) {
    return errorOutcome('invalid_arguments', 'INVALID_ARGUMENTS', argsErrorText(tool.publicName, checked.lines), { issues: checked.lines });
  }
  const timeoutMs = options.timeoutMs ?? tool.def.timeoutMs ?? tool.host.loaded.section.timeoutMs ?? env.toolMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TimeoutError(`tool ${tool.publicName}`, timeoutMs)), timeoutMs);
  const onCancel = () => controller.abort(new CancelledError(options.signal?.reason));
  const onShutdown = () => controller.abort(new ShutdownError());
  options.signal?.addEventListener('abort', onCancel, { once: true });
  env.shutdown.addEventListener('abort', onShutdown, { once: true });
  if (options.signal?.aborted) onCancel();
  let lastProgress = -Infinity;
  const progress = (update: ProgressUpdate) => {
    // Progress must increase with each notification; late or repeated reports are dropped.
    if (controller.signal.aborted || !options.onProgress || !(update.progress > lastProgress)) return;
    lastProgress = update.progress;
    options.onProgress(update);
  };
  try {
    const aborted = new Promise<never>((_, reject) => {
      if (controller.signal.aborted) reject(controller.signal.reason);
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    aborted.catch(() => undefined);
    const ctx = tool.host.callContext(controller.signal, progress);
    const work =
      tool.host.state === 'running'
        ? Promise.resolve().then(() => tool.def.handler(checked.value, ctx))
        : tool.host.ensureStarted().then(() => tool.def.handler(checked.value, ctx));
    work.catch(() => undefined);
    const result = toToolResult(await Promise.race([work, aborted]));
    if (result.isError) return { result, error: resultError(result) };
    if (tool.def.output && result.structuredContent !== undefined && 'safeParse' in tool.def.output) {
      const parsed = (tool.def.output as z.ZodType).safeParse(result.structuredContent);
      if (!parsed.success) {
        const lines = issueLines(parsed.error, result.structuredContent);
        const detail = lines.map((l) => `${l.path}: ${l.message}`).join('; ');
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
  if (isToolError(error)) {
    return errorOutcome(error.code === 'UNAVAILABLE' ? 'unavailable' : 'tool_error', error.code, error.message, error.data);
  }
  const message = error instanceof Error ? error.message : String(error);
  logger.debug(`tool ${tool.publicName} threw`, error);
  return errorOutcome('tool_error', 'TOOL_ERROR', message || `tool ${tool.publicName} failed`);
}
