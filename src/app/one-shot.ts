// `mcphost call`: the same path as `serve` up to the registry, then one tool call in-process.
import type { ProgressUpdate } from '../backend/types.js';
import type { Override } from '../config/resolve.js';
import { objectShape } from '../lib/zod-introspect.js';
import { configureBackend, importBackend } from '../loader/load.js';
import { Registry, type PublishedTool } from '../registry/registry.js';
import type { CallOutcome } from '../registry/result.js';
import { kebab, parseToolFlags, UsageError, type RawFlag } from './tool-args.js';
import { loaderOptions, openConfig, type OpenOptions } from './open.js';

export interface OneShotRequest extends OpenOptions {
  plugin: string;
  tool: string;
  flags?: RawFlag[];
  /** `--args` JSON (already read from stdin when it was `-`). */
  argsJson?: string;
  /** Arguments given as a value (in-process callers); flags and `argsJson` are merged over them. */
  args?: Record<string, unknown>;
  timeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
}

export interface OneShotPrepared {
  registry: Registry;
  tool: PublishedTool;
  /** Flags that set plugin settings (`--file` for imhex). */
  settings: Override[];
  remaining: RawFlag[];
}

/** Loads the one plugin `call` names, taking flags that name its settings as config overrides. */
export async function prepareOneShot(request: Omit<OneShotRequest, 'argsJson'>): Promise<OneShotPrepared> {
  const opened = await openConfig(request);
  const { resolved, logger } = opened;
  const imported = await importBackend(request.plugin, loaderOptions(opened, request));
  const settingKeys = imported.server ? [] : Object.keys(objectShape(imported.backend.configSchema) ?? {});
  const settings: Override[] = [];
  const remaining: RawFlag[] = [];
  for (const flag of request.flags ?? []) {
    const key = settingKeys.find((k) => k === flag.name || kebab(k) === flag.name);
    if (key && flag.value !== undefined)
      settings.push({ path: `plugins.${request.plugin}.${key}`, value: flag.value, flag: `--${flag.name}` });
    else remaining.push(flag);
  }
  resolved.overrides.push(...settings);
  const loaded = configureBackend(imported, resolved);
  const registry = await Registry.create([loaded], { logger, timeouts: resolved.config.timeouts, limits: resolved.config.limits });
  try {
    const tool = await registry.findLocalTool(request.plugin, request.tool);
    return { registry, tool, settings, remaining };
  } catch (error) {
    await registry.close();
    throw error;
  }
}

export function argsFrom(
  request: Pick<OneShotRequest, 'argsJson' | 'args' | 'plugin' | 'tool'>,
  prepared: OneShotPrepared,
): Record<string, unknown> {
  let fromJson: unknown = {};
  if (request.argsJson !== undefined) {
    try {
      fromJson = JSON.parse(request.argsJson);
    } catch (error) {
      throw new UsageError(`--args is not valid JSON: ${(error as Error).message}`);
    }
    if (fromJson === null || typeof fromJson !== 'object' || Array.isArray(fromJson)) throw new UsageError('--args must be a JSON object');
  }
  const { args } = parseToolFlags(prepared.remaining, prepared.tool.inputSchema, `${request.plugin} ${request.tool}`);
  return { ...request.args, ...(fromJson as Record<string, unknown>), ...args };
}

export async function runOneShot(request: OneShotRequest): Promise<CallOutcome> {
  const prepared = await prepareOneShot(request);
  try {
    const args = argsFrom(request, prepared);
    return await prepared.registry.invoke(prepared.tool, args, {
      signal: request.signal,
      onProgress: request.onProgress,
      timeoutMs: request.timeoutMs,
    });
  } finally {
    await prepared.registry.close();
  }
}
