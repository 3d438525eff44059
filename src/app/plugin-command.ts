// `mcphost <plugin>:<command>`: a command a plugin contributes (Backend.commands), run with the
// plugin's resolved config and a call context, the way `call` runs a tool but without start(). Its
// flags come from the command's zod input by the same generator as a tool's (call/arguments.ts), so a
// command's options, defaults and help are written once, in the plugin.
import type { CommandDef, ProgressUpdate } from '../backend/types.js';
import type { HostLogLevel } from '../lib/logger.js';
import { formatIssueLines, issueLines } from '../kit/zod-issues.js';
import { configureBackend, importBackend, type ImportedBackend } from '../loader/load.js';
import { closest } from '../kit/closest.js';
import { Registry } from '../registry/registry.js';
import { toJsonSchema, type JsonSchema } from '../registry/schemas.js';
import { kebab, paramShapes, parseToolFlags, type RawFlag } from './call/arguments.js';
import { UsageError } from './usage-error.js';
import { loaderOptions, openConfig, type OpenedConfig, type OpenOptions } from './open.js';

export interface PluginCommandTarget extends OpenOptions {
  plugin: string;
  command: string;
}

export interface PluginCommandRequest extends PluginCommandTarget {
  args?: Record<string, unknown>;
  /** Flags as typed (`--max-calls 60`), read against the command's input schema; they win over `args`' keys. */
  flags?: RawFlag[];
  signal?: AbortSignal;
  /** Told the host's log level too (progress shows only at info and above), as one-shot `call`'s is. */
  onProgress?: (update: ProgressUpdate, logLevel: HostLogLevel) => void;
}

export interface FoundPluginCommand {
  opened: OpenedConfig;
  imported: ImportedBackend;
  def: CommandDef;
  /** The input as JSON Schema: what the flags and the help are generated from. */
  schema: JsonSchema;
}

export async function findPluginCommand(target: PluginCommandTarget): Promise<FoundPluginCommand> {
  const opened = await openConfig(target);
  const imported = await importBackend(target.plugin, loaderOptions(opened, target));
  const commands = imported.backend.commands ?? {};
  const def = Object.hasOwn(commands, target.command) ? commands[target.command] : undefined;
  if (!def) {
    // A usage error (exit 1), as an unknown host command is (not-found.ts): the plugin itself loaded.
    const known = Object.keys(commands).map((c) => `${target.plugin}:${c}`);
    const near = closest(`${target.plugin}:${target.command}`, known, 2);
    throw new UsageError(
      `unknown command ${target.plugin}:${target.command}` +
        (near.length ? `; did you mean mcphost ${near[0]}?` : '') +
        (known.length ? ` (the ${target.plugin} plugin has ${known.join(', ')})` : ` (the ${target.plugin} plugin has no commands)`),
    );
  }
  return { opened, imported, def, schema: toJsonSchema(def.input, 'input') };
}

export async function runPluginCommand(request: PluginCommandRequest): Promise<unknown> {
  const { opened, imported, def, schema } = await findPluginCommand(request);
  const args = { ...request.args };
  if (request.flags) {
    Object.assign(args, parseToolFlags(request.flags, schema, `${request.plugin}:${request.command}`).args);
    // Said as the flag to add, before zod's "expected string, received undefined".
    const missing = paramShapes(schema).find((p) => p.required && p.default === undefined && args[p.name] === undefined);
    if (missing) throw new UsageError(`--${kebab(missing.name)} is required${missing.description ? `: ${missing.description}` : ''}`);
  }
  const parsed = def.input.safeParse(args, { reportInput: true });
  if (!parsed.success) throw new UsageError(formatIssueLines(issueLines(parsed.error, args, [], def.input)));
  const registry = await Registry.create([configureBackend(imported, opened.resolved)], {
    logger: opened.logger,
    timeouts: opened.resolved.config.timeouts,
    files: { roots: opened.resolved.config.files.roots, cwd: opened.resolved.cwd },
  });
  try {
    const signal = request.signal ?? new AbortController().signal;
    const onProgress = request.onProgress;
    const progress = onProgress ? (update: ProgressUpdate) => onProgress(update, opened.logLevel) : () => undefined;
    return await def.run(parsed.data, registry.hosts[0].callContext(signal, progress, registry.localClient));
  } finally {
    await registry.close();
  }
}
