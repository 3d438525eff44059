// What the SDK's JSONRPCMessageSchema (zod) would say of a JSON-RPC message, for the shapes nearly
// every message has. Every line read from a client (src/server/stdio-transport.ts) or from a mounted
// stdio server (../stdio-child.ts) went through that schema before the SDK checked the same message
// again; the shapes recognised here with a few typeof checks are a request, a notification or a
// result whose keys are exactly those the schema allows, whose id is a string or a safe integer,
// and whose `_meta` (if any) the schema would leave as it is. For these the schema's verdict is
// "valid" and its output a copy equal to the input, so the input is used as it is. Anything else (an
// error response, a result with `_meta`, an extra key, a number id past 2^53, …) is left to the
// schema, so every refusal and its wording stay the SDK's. (What this saves: docs/performance.md.)
import { RELATED_TASK_META_KEY, type JSONRPCMessage } from '@modelcontextprotocol/client';

export type Plain = Record<string, unknown>;

/** An object that is not an array (a JSON object once parsed). */
export function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(id: unknown): boolean {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

/** Keys of `value` all among `allowed`. */
export function onlyKeys(value: Plain, allowed: readonly string[]): boolean {
  for (const key in value) if (!allowed.includes(key)) return false;
  return true;
}

/** Request and notification params: any object whose `_meta`, if present, the schema keeps unchanged. */
function plainParams(params: unknown): boolean {
  if (params === undefined) return true;
  if (!isPlain(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return !('_meta' in params);
  if (!isPlain(meta) || RELATED_TASK_META_KEY in meta) return false;
  const token = meta.progressToken;
  return token === undefined ? !('progressToken' in meta) : isId(token);
}

const REQUEST_KEYS = ['jsonrpc', 'id', 'method', 'params'] as const;
const NOTIFICATION_KEYS = ['jsonrpc', 'method', 'params'] as const;
const RESULT_KEYS = ['jsonrpc', 'id', 'result'] as const;

/**
 * Whether a parsed JSON value is a JSON-RPC message of a common shape that
 * `JSONRPCMessageSchema` accepts unchanged. False means "ask the schema", not "invalid".
 */
export function isPlainMessage(value: unknown): value is JSONRPCMessage {
  if (!isPlain(value) || value.jsonrpc !== '2.0') return false;
  if (typeof value.method === 'string') {
    if ('id' in value) return isId(value.id) && onlyKeys(value, REQUEST_KEYS) && plainParams(value.params);
    return onlyKeys(value, NOTIFICATION_KEYS) && plainParams(value.params);
  }
  const result = value.result;
  return isPlain(result) && !('_meta' in result) && isId(value.id) && onlyKeys(value, RESULT_KEYS);
}
