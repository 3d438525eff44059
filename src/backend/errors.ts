// Errors a handler throws on purpose. The registry turns each into an MCP tool error result
// (`isError: true`) carrying `code`, so a client or `mcphost call` can tell them apart.

export type ToolErrorCode = string | number;

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
