// `mcphost call`: the same path as `serve` up to the registry, then one tool call in-process.
import type { Logger, ProgressUpdate } from '../backend/types.js';
import type { Override } from '../config/resolve.js';
import type { HostLogLevel } from '../lib/logger.js';
import { configureBackend, importBackend } from '../loader/load.js';
import { UnknownNameError } from '../registry/errors.js';
import { closest } from '../kit/closest.js';
import { Registry, type PublishedTool } from '../registry/registry.js';
import { ERROR_META_KEY, errorOutcome, type CallOutcome } from '../registry/result.js';
import { CallFailure } from './failures.js';
import { callArguments, checkSettingClashes, readSettingFlags, type RawFlag } from './call/arguments.js';
import { knownBackends, targetOfPublished } from './call/target.js';
import { loaderOptions, openConfig, type OpenOptions } from './open.js';

export interface OneShotRequest extends OpenOptions {
  /** Absent when `tool` is a published name (`everything_echo`): the plugin is its prefix. */
  plugin?: string;
  tool: string;
  flags?: RawFlag[];
  /** `--args` JSON (already read from stdin when it was `-`). */
  argsJson?: string;
  /** Arguments given as a value (in-process callers); flags and `argsJson` are merged over them. */
  args?: Record<string, unknown>;
  timeoutMs?: number;
  /** `--as-task`: call as a 2026-07-28 client that follows tasks (task-call.ts). */
  asTask?: boolean;
  signal?: AbortSignal;
  /** Progress of the call; `logLevel` says whether the user wants to see it. */
  onProgress?: (update: ProgressUpdate, logLevel: HostLogLevel) => void;
  /** Told `timeouts.shutdownMs` once the config is read (how long an interrupted call may take to stop). */
  onShutdownMs?: (ms: number) => void;
  /**
   * Given the outcome as soon as there is one, before the backends stop: a mounted server may take
   * its whole stop grace (stdin closed, then SIGTERM), which the person waiting for the answer need not.
   */
  onOutcome?: (outcome: CallOutcome) => void | Promise<void>;
}

export interface OneShotPrepared {
  registry: Registry;
  plugin: string;
  tool: PublishedTool;
  /** Flags that set plugin settings (`--file` for imhex). */
  settings: Override[];
  remaining: RawFlag[];
  /** Plugin settings a flag may set, for help. */
  settingKeys: string[];
  /** Those of them that are switches (`--writable`, `--no-writable`). */
  switches: string[];
  logLevel: HostLogLevel;
  logger: Logger;
  /** `timeouts.shutdownMs`. */
  shutdownMs: number;
}

/** Loads the one plugin `call` names, taking flags that name its settings as config overrides. */
export async function prepareOneShot(request: Omit<OneShotRequest, 'argsJson'>): Promise<OneShotPrepared> {
  const opened = await openConfig(request);
  const { resolved, logger } = opened;
  request.onShutdownMs?.(resolved.config.timeouts.shutdownMs);
  const target = request.plugin
    ? { plugin: request.plugin, tool: request.tool }
    : targetOfPublished(request.tool, knownBackends(resolved, request.installed, request.builtinRoot));
  const imported = await importBackend(target.plugin, loaderOptions(opened, request));
  // A mounted server's settings are never flags.
  const { settings, remaining, settingKeys, switches } = readSettingFlags(
    target.plugin,
    imported.server ? undefined : imported.backend.configSchema,
    request.flags ?? [],
  );
  const loaded = configureBackend(imported, resolved, settings);
  const registry = await Registry.create([loaded], {
    logger,
    timeouts: resolved.config.timeouts,
    limits: resolved.config.limits,
    files: { roots: resolved.config.files.roots, cwd: resolved.cwd },
  });
  try {
    const tool = await registry.findLocalTool(target.plugin, target.tool).catch(async (error: unknown) => {
      if (request.plugin || !(error instanceof UnknownNameError)) throw error;
      // Asked by published name: suggest published names.
      const names = (await registry.tools(target.plugin)).map((t) => t.publicName);
      const hint = closest(target.tool, names);
      throw new UnknownNameError('tool', target.tool, names, hint.length ? `; did you mean ${hint.join(', ')}?` : ` (${names.join(', ')})`);
    });
    checkSettingClashes(target.plugin, settingKeys, await registry.tools(target.plugin));
    return {
      registry,
      plugin: target.plugin,
      tool,
      settings,
      remaining,
      settingKeys,
      switches,
      logLevel: opened.logLevel,
      logger,
      shutdownMs: resolved.config.timeouts.shutdownMs,
    };
  } catch (error) {
    await registry.close();
    throw error;
  }
}

export async function runOneShot(request: OneShotRequest): Promise<CallOutcome> {
  const prepared = await prepareOneShot(request);
  try {
    const describe = `${prepared.plugin} ${prepared.tool.def.name}`;
    const args = callArguments(request, prepared.remaining, prepared.tool.inputSchema, describe, prepared.settingKeys);
    const onProgress = request.onProgress;
    const progress = onProgress && ((update: ProgressUpdate) => onProgress(update, prepared.logLevel));
    const outcome = request.asTask
      ? await callInProcessAsTask(prepared, args, request, progress)
      : await prepared.registry.invoke(prepared.tool, args, { signal: request.signal, onProgress: progress, timeoutMs: request.timeoutMs });
    await request.onOutcome?.(outcome);
    return outcome;
  } finally {
    await prepared.registry.close();
  }
}

/** The call through mcphost's own MCP server in this process, as a client that follows tasks. */
async function callInProcessAsTask(
  prepared: OneShotPrepared,
  args: Record<string, unknown>,
  request: OneShotRequest,
  onProgress: ((update: ProgressUpdate) => void) | undefined,
): Promise<CallOutcome> {
  const [{ connectLoopback }, { callAsTask }, { ProtocolError }] = await Promise.all([
    import('./loopback.js'),
    import('./task-call.js'),
    import('@modelcontextprotocol/client'),
  ]);
  const loopback = await connectLoopback(prepared.registry, prepared.logger);
  const name = prepared.tool.publicName;
  try {
    return await callAsTask(loopback.client, name, args, {
      signal: request.signal,
      onProgress,
      timeoutMs: request.timeoutMs,
      cancelWaitMs: cancelWait(prepared.shutdownMs),
      onTask: (id) => prepared.logger.debug(`${name} runs as task ${id}`),
    });
  } catch (error) {
    // Interrupted before the server answered with a task: the SDK dropped the request, as a direct call's cancel.
    if (request.signal?.aborted)
      return errorOutcome('cancelled', 'CANCELLED', `tool ${name} was cancelled: ${String(request.signal.reason)}`);
    // A refusal of mcphost's own server (a JSON-RPC error): what a direct call reports for it.
    if (error instanceof ProtocolError)
      return errorOutcome(error.code === -32602 ? 'invalid_arguments' : 'tool_error', error.code, error.message, error.data);
    throw error;
  } finally {
    await loopback.close();
  }
}

/** What a Ctrl-C may wait for the server to confirm a task's cancel: half the shutdown deadline, the rest is the stop's. */
const cancelWait = (shutdownMs: number) => Math.max(100, Math.floor(shutdownMs / 2));

/** An outcome's failure as an error, for callers that report failures by throwing. */
export function failureOf(outcome: CallOutcome): CallFailure | undefined {
  if (!outcome.error) return undefined;
  const meta = outcome.result._meta?.[ERROR_META_KEY] as { data?: unknown } | undefined;
  return new CallFailure({ ...outcome.error, data: meta?.data }, outcome.result);
}
