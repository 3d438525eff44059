// `mcphost call`: the same path as `serve` up to the registry, then one tool call in-process.
import type { ProgressUpdate } from '../backend/types.js';
import type { Override } from '../config/resolve.js';
import type { HostLogLevel } from '../lib/logger.js';
import { configureBackend, importBackend } from '../loader/load.js';
import { UnknownNameError } from '../registry/errors.js';
import { closest } from '../kit/closest.js';
import { Registry, type PublishedTool } from '../registry/registry.js';
import { ERROR_META_KEY, type CallOutcome } from '../registry/result.js';
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
    return { registry, plugin: target.plugin, tool, settings, remaining, settingKeys, switches, logLevel: opened.logLevel };
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
    const outcome = await prepared.registry.invoke(prepared.tool, args, {
      signal: request.signal,
      onProgress: onProgress && ((update) => onProgress(update, prepared.logLevel)),
      timeoutMs: request.timeoutMs,
    });
    await request.onOutcome?.(outcome);
    return outcome;
  } finally {
    await prepared.registry.close();
  }
}

/** An outcome's failure as an error, for callers that report failures by throwing. */
export function failureOf(outcome: CallOutcome): CallFailure | undefined {
  if (!outcome.error) return undefined;
  const meta = outcome.result._meta?.[ERROR_META_KEY] as { data?: unknown } | undefined;
  return new CallFailure({ ...outcome.error, data: meta?.data }, outcome.result);
}
