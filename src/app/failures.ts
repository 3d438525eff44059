// Failures of a use case that are not exceptions of the core: a tool (or resource read) that ran and
// failed. The CLI maps each to its exit code in one place (src/cli/exit-codes.ts).
import type { ToolErrorCode } from '../backend/error-codes.js';
import type { ToolResult } from '../backend/types.js';
import type { CallOutcome, ErrorKind } from '../registry/result.js';

/** A tool call whose outcome is an error result, or a resource read that threw. */
export class CallFailure extends Error {
  readonly kind: ErrorKind;
  readonly code: ToolErrorCode;
  readonly data?: unknown;
  /** The MCP error result, when the tool ran. */
  readonly result?: ToolResult;
  constructor(error: NonNullable<CallOutcome['error']> & { data?: unknown }, result?: ToolResult) {
    super(error.message);
    this.name = 'CallFailure';
    this.kind = error.kind;
    this.code = error.code;
    this.data = error.data;
    this.result = result;
  }
}

/** A backend named on the command line is down: its listing failed, so what was printed is incomplete. */
export class BackendDownError extends Error {
  readonly plugins: string[];
  constructor(down: Array<{ plugin: string; message: string }>) {
    super(down.map((d) => `${d.plugin} is down: ${d.message}`).join('\n'));
    this.name = 'BackendDownError';
    this.plugins = down.map((d) => d.plugin);
  }
}

/** A sign-in (`mcphost auth <server>`) that did not complete: the server or its authorization server failed, or the user did not finish. */
export class SignInFailure extends Error {
  readonly server: string;
  constructor(server: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignInFailure';
    this.server = server;
  }
}
