// The one answer to "would the SDK's CallToolResult schema hand this result back unchanged?", for
// both sides of the relay: the upstream side skips the schema for such a result (call-tool.ts), and
// the stdio server sends such a result as it is instead of through its codec's check
// (src/server/sdk-bypass/tool-call.ts). "Unchanged" is strict: deep-equal and in the same key
// order, since the server writes the object to the wire as it is. The schema's output lists keys
// in its shape's order (`_meta`, `content`, `structuredContent`, `isError`), drops unknown keys of
// a text item and an own `__proto__` key, and the 2025 wire schema refuses a `structuredContent`
// that is not an object; so only the common shape is recognised here, and every other result,
// refused or not, is left to the schema. test/sdk-bypass/shapes.test.ts holds this to the SDK's
// own parse (the 2025 wire schema and specTypeSchemas.CallToolResult) on common and edge cases.
import { isPlain, type Plain } from './message-shape.js';

/** The keys of a recognised result, in the order the schema writes them. */
const RESULT_ORDER = ['content', 'structuredContent', 'isError'];

/**
 * True when the SDK's CallToolResult schema (2025 wire and neutral alike) accepts `value` and
 * returns a value identical to it, key order included: `content` of text items only (`type`, then
 * a string `text`), then at most a plain-object `structuredContent`, then at most a boolean
 * `isError`, in that order and nothing else. False means "ask the schema", not "invalid".
 */
export function unchangedBySdkSchema(value: unknown): value is Plain {
  if (!isPlain(value)) return false;
  let at = 0;
  for (const key in value) {
    while (at < RESULT_ORDER.length && RESULT_ORDER[at] !== key) at++;
    if (at === RESULT_ORDER.length) return false;
    at++;
  }
  if (!Array.isArray(value.content)) return false;
  if ('isError' in value && typeof value.isError !== 'boolean') return false;
  if ('structuredContent' in value && !plainRecord(value.structuredContent)) return false;
  for (const item of value.content as unknown[]) {
    if (!isPlain(item) || item.type !== 'text' || typeof item.text !== 'string') return false;
    // Own keys `type` then `text`, nothing else (a third key could only be a second `text`).
    let first = true;
    for (const key in item) {
      if (key !== (first ? 'type' : 'text')) return false;
      first = false;
    }
  }
  return true;
}

/** An object the schema's record copies key for key (an own `__proto__` key is not copied). */
function plainRecord(value: unknown): boolean {
  return isPlain(value) && !Object.prototype.hasOwnProperty.call(value, '__proto__');
}
