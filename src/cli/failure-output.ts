// How a command's failure reaches the user, with or without oclif loaded (call-main.ts runs `call`
// without it): the message on stderr, or with --json `{"error": {message, exit, …}}` on stdout.
import { CallFailure } from '../app/failures.js';
import type { ExitCode } from './exit-codes.js';
import { colorsFor } from './style.js';
import { redact, redactDeep } from '../lib/secrets.js';

/** Plain JSON, even on a terminal: what --json prints is for programs. */
export function writeJson(json: unknown): void {
  process.stdout.write(`${JSON.stringify(redactDeep(json), null, 2)}\n`);
}

/**
 * The message goes out as it is (oclif's own `error` wraps lines at 80 columns, which breaks paths
 * and key paths apart); with --json it is the only thing on stdout.
 */
export function writeFailure(error: Error, exit: ExitCode, json: boolean): void {
  if (json) {
    const call = error instanceof CallFailure ? error : undefined;
    const extra = call ? { code: call.code, ...(call.data !== undefined && { data: call.data }) } : {};
    // A tool that ran keeps its raw MCP result beside the error, as `call --json` prints on success.
    writeJson({ error: { message: error.message, exit, ...extra }, ...call?.result });
  } else process.stderr.write(`${colorsFor(process.stderr).red('Error:')} ${redact(error.message)}\n`);
}
