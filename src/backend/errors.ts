// Errors a handler throws on purpose. The registry turns each into an MCP tool error result
// (`isError: true`) carrying `code` (one of error-codes.ts's table), so a client or `mcphost call`
// can tell them apart.
import type { ToolErrorCode } from './error-codes.js';

export type { ToolErrorCode } from './error-codes.js';

export class ToolError extends Error {
  readonly code: ToolErrorCode;
  readonly data?: unknown;
  constructor(message: string, options: { code?: ToolErrorCode; data?: unknown; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ToolError';
    this.code = options.code ?? 'TOOL_ERROR';
    this.data = options.data;
  }
}

/** The backend cannot be reached or started: the message says what to start or configure. */
export class UnavailableError extends ToolError {
  constructor(message: string, options: { data?: unknown; cause?: unknown } = {}) {
    super(message, { ...options, code: 'UNAVAILABLE' });
    this.name = 'UnavailableError';
  }
}

export class NotFoundError extends ToolError {
  constructor(message: string, options: { data?: unknown; cause?: unknown } = {}) {
    super(message, { ...options, code: 'NOT_FOUND' });
    this.name = 'NotFoundError';
  }
}

export function isToolError(error: unknown): error is ToolError {
  return error instanceof Error && typeof (error as ToolError).code !== 'undefined' && 'data' in error;
}

const REQUEST_ERROR = Symbol.for('mcphost.RequestError');

/**
 * Refuses the request itself: answered as a JSON-RPC error with this `code` (and `data`), not as a
 * tool error result. For what the protocol defines as such — a missing client capability (-32021,
 * MissingCapabilityError), invalid params (-32602). Anything a tool merely failed to do is a ToolError.
 */
export class RequestError extends Error {
  readonly code: number;
  readonly data?: unknown;
  readonly [REQUEST_ERROR] = true;
  constructor(code: number, message: string, options: { data?: unknown; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'RequestError';
    this.code = code;
    this.data = options.data;
  }
}

/** The client did not declare what this request needs (MCP's MissingRequiredClientCapability, -32021). */
export class MissingCapabilityError extends RequestError {
  constructor(required: Record<string, unknown>, message?: string) {
    const names = Object.keys(required).join(', ');
    super(-32021, message ?? `the client did not declare the ${names} capability this request needs`, {
      data: { requiredCapabilities: required },
    });
    this.name = 'MissingCapabilityError';
  }
}

/** True for a RequestError, also one from another copy of this module (a plugin's own). */
export function isRequestError(error: unknown): error is RequestError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[REQUEST_ERROR] === true &&
    typeof (error as RequestError).code === 'number'
  );
}

/** A resource whose backend cannot report its changes (resources/subscribe is refused for it). */
export class NotWatchableError extends Error {
  constructor(uri: string) {
    super(`resource ${uri.slice(0, 200)} cannot report updates: its backend does not watch it (read it again instead)`);
    this.name = 'NotWatchableError';
  }
}
