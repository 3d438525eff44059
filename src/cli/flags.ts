// Flags as data. The global flags and `call`'s own flags are written once here; oclif's flag
// definitions (parsing, `--help`, oclif-flags.ts), `call`'s argv splitting and the per-tool help are
// all made from these tables, so none of them can drift from the others. No oclif here: `call`'s
// fast path (call-main.ts) splits its argv without loading it.
import { LOG_LEVELS } from '../lib/logger.js';

export interface FlagSpec {
  name: string;
  char?: 'c' | 'h' | 'q';
  /** Placeholder of the value in help; absent for a switch. */
  value?: string;
  options?: readonly string[];
  description: string;
  /**
   * Only before the plugin and tool names: after them the flag is the tool's or the plugin's (unreal
   * and exile have a `url` setting that `--url` sets for one call).
   */
  first?: boolean;
}

/** Every command that opens the host takes these. */
export const GLOBAL_FLAGS = [
  {
    name: 'config',
    char: 'c',
    value: 'file',
    description: 'config file to use instead of searching for .mcprc (env MCPHOST_CONFIG)',
  },
  {
    name: 'log-level',
    value: 'level',
    options: LOG_LEVELS,
    description: 'what goes to stderr: silent, error, warn, info (logs and progress), debug (env MCPHOST_LOG_LEVEL, MCP_SERVER_LOG)',
  },
  { name: 'quiet', char: 'q', description: 'no progress, errors only (below an explicit --log-level)' },
] as const satisfies readonly FlagSpec[];

/** `mcphost call`'s own flags. Anything else after the tool name is a tool parameter or a plugin setting. */
export const CALL_FLAGS = [
  { name: 'args', value: 'json|-', description: 'the whole argument object as JSON, or - to read it from stdin; flags override its keys' },
  { name: 'json', description: 'print the raw MCP result as JSON (on failure with "error": {message, exit, code} beside it)' },
  { name: 'timeout', value: 'ms', description: 'abort the call after this many milliseconds' },
  {
    name: 'as-task',
    description:
      'call as a 2026-07-28 client that follows tasks: a long task-capable tool becomes a task, polled with tasks/get; Ctrl-C sends tasks/cancel',
  },
  {
    name: 'url',
    value: 'url',
    first: true,
    description:
      'before the tool name: call through a running `mcphost serve --http` (e.g. http://127.0.0.1:7010/mcp), so state lives on between calls',
  },
  ...GLOBAL_FLAGS,
  { name: 'help', char: 'h', description: "the tool's description and its flags" },
] as const satisfies readonly FlagSpec[];

export type CallFlagName = (typeof CALL_FLAGS)[number]['name'];

/** The host's flags of a plugin's command (`mcphost exile:snapshot`); the rest come from the command's input schema. */
export const COMMAND_FLAGS = [
  { name: 'json', description: 'print the result as JSON (on failure {"error": {message, exit}})' },
  ...GLOBAL_FLAGS,
  { name: 'help', char: 'h', description: "the command's description and its flags" },
] as const satisfies readonly FlagSpec[];

/** What oclif needs to show a flag of a table in `--help`. */
export function flagProps(spec: FlagSpec, helpGroup?: string) {
  return { char: spec.char, description: spec.description, helpGroup, ...(spec.value && { helpValue: `<${spec.value}>` }) };
}

export const globalFlag = (name: (typeof GLOBAL_FLAGS)[number]['name']) =>
  flagProps(
    GLOBAL_FLAGS.find((s) => s.name === name)!,
    'GLOBAL',
  );

/** The flag a token names, by `--name` or `-c`. */
export function findFlag<T extends FlagSpec>(specs: readonly T[], token: string): (FlagSpec & { name: T['name'] }) | undefined {
  if (/^-[a-z]$/.test(token)) return specs.find((s) => s.char === token[1]);
  return token.startsWith('--') ? specs.find((s) => s.name === token.slice(2)) : undefined;
}
