// One table of exit codes for every command (docs/reference.md's "Exit codes"), and the one function that
// maps a failure to its code. Commands never pick a number themselves: they throw, and the base
// command (host-command.ts) prints the message (or `{"error": …}` with --json) and exits with this.
import { toolErrorExit } from '../backend/error-codes.js';
import { isToolError } from '../backend/errors.js';
import { ConfigError } from '../config/errors.js';
import { BackendDownError, CallFailure, SignInFailure } from '../app/failures.js';
import { UsageError } from '../app/usage-error.js';
import { ContractError } from '../loader/contract.js';
import { PluginLoadError } from '../loader/errors.js';
import { InvalidParamsError, RegistryError, UnknownNameError } from '../registry/errors.js';

export const Exit = {
  OK: 0,
  /** Bad flags or arguments (whoever finds them: the parser, the schema or the handler), unknown command, tool or resource. */
  USAGE: 1,
  /** A plugin was not found, failed to load, or broke the Backend contract. */
  PLUGIN: 2,
  /** The configuration (.mcprc, environment, flags) is invalid. */
  CONFIG: 3,
  /** A backend could not be reached or started. */
  UNAVAILABLE: 4,
  /** The tool ran and returned an error. */
  TOOL_ERROR: 5,
} as const;

/** A call cancelled by a signal: 128 + its number, as a shell reports a process it ended (130 for Ctrl-C). */
export const INTERRUPTED = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

export type ExitCode = (typeof Exit)[keyof typeof Exit] | (typeof INTERRUPTED)[keyof typeof INTERRUPTED];

// The contract's tool error table (src/backend/error-codes.ts) names only exits of this table.
const _toolErrorExitsInTable: ReturnType<typeof toolErrorExit> extends ExitCode ? true : never = true;

/** A failure a command detects itself (a missing flag, a port in use), with its code from the table. */
export class CommandFailure extends Error {
  readonly exit: ExitCode;
  constructor(message: string, exit: ExitCode) {
    super(message);
    this.name = 'CommandFailure';
    this.exit = exit;
  }
}

/** The exit code of an expected failure; `undefined` for anything else (a bug, shown with its stack). */
export function exitCodeFor(error: unknown): ExitCode | undefined {
  if (error instanceof CommandFailure) return error.exit;
  if (error instanceof UsageError || error instanceof InvalidParamsError) return Exit.USAGE;
  if (error instanceof ConfigError) return Exit.CONFIG;
  if (error instanceof PluginLoadError || error instanceof ContractError || error instanceof RegistryError) return Exit.PLUGIN;
  if (error instanceof UnknownNameError) return error.kind === 'plugin' ? Exit.PLUGIN : Exit.USAGE;
  if (error instanceof BackendDownError || error instanceof SignInFailure) return Exit.UNAVAILABLE;
  // A tool error's exit is its code's, from the contract's one table (src/backend/error-codes.ts):
  // a handler that finds an argument wrong (INVALID_ARGUMENT, or JSON-RPC's -32602) exits as if
  // the schema had refused it.
  if (error instanceof CallFailure || isToolError(error)) return toolErrorExit(error.code);
  return undefined;
}
