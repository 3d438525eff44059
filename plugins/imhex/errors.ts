// Tool errors carrying the protocol's codes, so both providers fail the same way.
import { ToolError } from '../../src/backend/index.js';
import { RpcCode } from './protocol.js';

/** -32602: a parameter is missing or invalid. The message starts with the field's name. */
export function invalidParams(field: string, problem: string, data: Record<string, unknown> = {}): ToolError {
  return new ToolError(`${field}: ${problem}`, { code: RpcCode.INVALID_PARAMS, data: { field, ...data } });
}

export function notWritable(detail: string): ToolError {
  return new ToolError(`Provider is not writable: ${detail}`, { code: RpcCode.NOT_WRITABLE });
}
