// `mcphost <plugin>:<command>`: a command a plugin contributes (Backend.commands), run with the
// plugin's resolved config and a call context, the way `call` runs a tool but without start().
import type { ProgressUpdate } from '../backend/types.js';
import { formatIssueLines, issueLines } from '../kit/zod-issues.js';
import { configureBackend, importBackend } from '../loader/load.js';
import { UnknownNameError } from '../registry/errors.js';
import { Registry } from '../registry/registry.js';
import { UsageError } from './tool-args.js';
import { loaderOptions, openConfig, type OpenOptions } from './open.js';

export interface PluginCommandRequest extends OpenOptions {
  plugin: string;
  command: string;
  args: Record<string, unknown>;
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
}

export async function runPluginCommand(request: PluginCommandRequest): Promise<unknown> {
  const opened = await openConfig(request);
  const imported = await importBackend(request.plugin, loaderOptions(opened, request));
  const def = imported.backend.commands?.[request.command];
  if (!def)
    throw new UnknownNameError('plugin', `${request.plugin}:${request.command}`, [], ` (the ${request.plugin} plugin has no such command)`);
  const parsed = def.input.safeParse(request.args, { reportInput: true });
  if (!parsed.success) throw new UsageError(formatIssueLines(issueLines(parsed.error, request.args, [], def.input)));
  const registry = await Registry.create([configureBackend(imported, opened.resolved)], {
    logger: opened.logger,
    timeouts: opened.resolved.config.timeouts,
    files: { roots: opened.resolved.config.files.roots, cwd: opened.resolved.cwd },
  });
  try {
    const signal = request.signal ?? new AbortController().signal;
    return await def.run(parsed.data, registry.hosts[0].callContext(signal, request.onProgress ?? (() => undefined), registry.localClient));
  } finally {
    await registry.close();
  }
}
