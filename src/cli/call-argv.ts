// `mcphost call`'s argv (and a plugin command's, with its own host flags): positionals, the host's
// own flags, and the rest (tool parameters and plugin settings), which src/app/call/arguments.ts turns
// into arguments once the tool's schema is known. After `--` every flag belongs to the tool,
// whatever its name; `--url` is call's only before the plugin and tool names.
import type { RawFlag } from '../app/call/arguments.js';
import { UsageError } from '../app/usage-error.js';
import { isLogLevel, LOG_LEVELS, type HostLogLevel } from '../lib/logger.js';
import { CALL_FLAGS, findFlag, type CallFlagName, type FlagSpec } from './flags.js';

export interface SplitArgv<N extends string = CallFlagName> {
  positionals: string[];
  host: Map<N, string | true>;
  flags: RawFlag[];
}

/**
 * Separates positionals, the host's own flags (`table`: call's, or a plugin command's), and the rest
 * (tool or command parameters, plugin settings).
 */
export function splitArgv<T extends FlagSpec = (typeof CALL_FLAGS)[number]>(
  argv: string[],
  table: readonly T[] = CALL_FLAGS as readonly FlagSpec[] as readonly T[],
): SplitArgv<T['name']> {
  const out: SplitArgv<T['name']> = { positionals: [], host: new Map(), flags: [] };
  let afterDashes = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--' && !afterDashes) {
      afterDashes = true;
      continue;
    }
    const eq = token.indexOf('=');
    const found = afterDashes ? undefined : findFlag(table, eq === -1 ? token : token.slice(0, eq));
    const spec = found?.first && out.positionals.length > 0 ? undefined : found;
    if (spec) {
      const inline = eq === -1 ? undefined : token.slice(eq + 1);
      if (!spec.value) out.host.set(spec.name, true);
      else {
        const value = inline ?? argv[++i];
        if (value === undefined) throw new UsageError(`--${spec.name} needs a value (<${spec.value}>)`);
        out.host.set(spec.name, value);
      }
      continue;
    }
    if (!token.startsWith('--') || token === '--') {
      if (out.flags.length > 0 && out.flags[out.flags.length - 1].value === undefined) {
        out.flags[out.flags.length - 1].value = token;
        continue;
      }
      out.positionals.push(token);
      continue;
    }
    out.flags.push({ name: token.slice(2, eq === -1 ? undefined : eq), value: eq === -1 ? undefined : token.slice(eq + 1), text: token });
  }
  return out;
}

export interface CallFlags {
  args?: string;
  json: boolean;
  timeoutMs?: number;
  asTask: boolean;
  url?: URL;
  config?: string;
  logLevel?: HostLogLevel;
  quiet: boolean;
  help: boolean;
}

/** The host flags' values, checked: each problem names the flag and what it takes. */
export function readCallFlags(host: SplitArgv['host']): CallFlags {
  const text = (name: CallFlagName) => host.get(name) as string | undefined;
  const logLevel = text('log-level');
  if (logLevel !== undefined && !isLogLevel(logLevel)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  const timeout = text('timeout');
  const timeoutMs = timeout === undefined ? undefined : Number(timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
    throw new UsageError(`--timeout expects a positive number of milliseconds, got ${JSON.stringify(timeout)}`);
  return {
    args: text('args'),
    json: host.has('json'),
    timeoutMs,
    asTask: host.has('as-task'),
    url: serverUrl(text('url')),
    config: text('config'),
    logLevel,
    quiet: host.has('quiet'),
    help: host.has('help'),
  };
}

function serverUrl(value: string | undefined): URL | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol))
    throw new UsageError(
      `--url expects the http(s) URL of a running mcphost serve, e.g. http://127.0.0.1:7010/mcp; got ${JSON.stringify(value)}`,
    );
  return url;
}
