// The relay's shortcuts past two SDK schemas (src/kit/mcp/sdk-bypass/): isPlainMessage for the
// JSON-RPC message schema, and unchangedBySdkSchema for the CallToolResult schema, which both sides
// of the relay ask (the upstream side's callToolResult, the stdio server's answer). Skipping is only
// right where the schema would have accepted the value and returned it unchanged: held here to the
// SDK's own parse, on common shapes, edge cases and every key order, and on the near misses each
// shortcut must leave to the schema.
import { parseJSONRPCMessage, RELATED_TASK_META_KEY, specTypeSchemas } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isPlainMessage } from '../../src/kit/mcp/sdk-bypass/message-shape.js';
import { callToolResult } from '../../src/kit/mcp/sdk-bypass/call-tool.js';
import { unchangedBySdkSchema } from '../../src/kit/mcp/sdk-bypass/result-shape.js';
import { wireCodecOf } from '../../src/kit/mcp/sdk-bypass/sdk-private.js';

const request = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } };
const messages: Array<[string, unknown, boolean]> = [
  ['a request', request, true],
  ['a request with a string id', { ...request, id: 'a-1' }, true],
  ['a request without params', { jsonrpc: '2.0', id: 1, method: 'ping' }, true],
  ['a request with a progress token', { ...request, params: { ...request.params, _meta: { progressToken: 'p' } } }, true],
  ['a request with a 2026 envelope', { ...request, params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }, true],
  ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }, true],
  ['a cancellation', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'x' } }, true],
  ['a result', { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'Echo: hi' }] } }, true],
  ['an empty result', { jsonrpc: '2.0', id: 'x', result: {} }, true],
  // Left to the schema: it refuses some, and changes or may change the others.
  ['an error response', { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found' } }, false],
  ['a result with _meta', { jsonrpc: '2.0', id: 7, result: { _meta: { 'io.modelcontextprotocol/serverInfo': 5 } } }, false],
  ['an extra top-level key', { ...request, extra: 1 }, false],
  ['jsonrpc 1.0', { ...request, jsonrpc: '1.0' }, false],
  ['a fractional id', { ...request, id: 1.5 }, false],
  ['an id past 2^53', { ...request, id: 2 ** 60 }, false],
  ['a null id', { ...request, id: null }, false],
  ['array params', { ...request, params: [1, 2] }, false],
  ['null params', { ...request, params: null }, false],
  ['a non-object _meta', { ...request, params: { _meta: 'x' } }, false],
  ['a boolean progress token', { ...request, params: { _meta: { progressToken: true } } }, false],
  ['a related-task key', { ...request, params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't' } } } }, false],
  ['a non-object result', { jsonrpc: '2.0', id: 7, result: 5 }, false],
  ['a result with a method', { jsonrpc: '2.0', id: 7, method: 'x', result: {} }, false],
  ['a batch', [request], false],
  ['a proto key', JSON.parse('{"jsonrpc":"2.0","method":"x","__proto__":{}}'), false],
];

function schemaVerdict(value: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseJSONRPCMessage(value) };
  } catch {
    return { ok: false };
  }
}

describe('isPlainMessage', () => {
  it.each(messages)('%s', (_, value, plain) => {
    expect(isPlainMessage(value)).toBe(plain);
    // Where it says yes, the SDK's schema accepts the message and returns it unchanged.
    if (plain) expect(schemaVerdict(value)).toEqual({ ok: true, value });
  });
});

const text = (t: string) => ({ type: 'text', text: t });
const json = (source: string): unknown => JSON.parse(source);
const results: Array<[string, unknown, boolean]> = [
  ['text content', { content: [text('a'), text('b')] }, true],
  ['an empty text', { content: [text('')] }, true],
  ['no content items', { content: [] }, true],
  ['an error result', { content: [text('failed')], isError: true }, true],
  ['isError false', { content: [text('ok')], isError: false }, true],
  ['structured content', { content: [text('{}')], structuredContent: { a: [1, { b: 2 }] } }, true],
  ['structured content and isError', { content: [], structuredContent: { b: 1, a: 2 }, isError: false }, true],
  ['empty structured content', { content: [], structuredContent: {} }, true],
  ['a __proto__ key deep in structured content', json('{"content":[],"structuredContent":{"a":{"__proto__":{"x":1}}}}'), true],
  ['many items', { content: Array.from({ length: 50 }, (_, i) => text(String(i))) }, true],
  // Changed by the schema: reordered, filled, stripped or refused.
  ['isError before content', { isError: true, content: [text('a')] }, false],
  ['isError before structuredContent', { content: [], isError: false, structuredContent: { a: 1 } }, false],
  ['structuredContent before content', { structuredContent: { a: 1 }, content: [] }, false],
  ['text before type', { content: [{ text: 'a', type: 'text' }] }, false],
  ['missing content', { isError: false }, false],
  ['an own __proto__ key in structured content', json('{"content":[],"structuredContent":{"__proto__":{"a":1},"b":2}}'), false],
  ['an own __proto__ key in a text item', json('{"content":[{"type":"text","text":"a","__proto__":{}}]}'), false],
  ['an own __proto__ key in the result', json('{"content":[],"__proto__":{"x":1}}'), false],
  ['a text item with an extra key', { content: [{ ...text('a'), extra: 1 }] }, false],
  ['a text item without text', { content: [{ type: 'text' }] }, false],
  ['a number as text', { content: [{ type: 'text', text: 5 }] }, false],
  ['a null item', { content: [null] }, false],
  ['content not an array', { content: text('a') }, false],
  ['null content', { content: null }, false],
  ['a string isError', { content: [], isError: 'yes' }, false],
  ['an undefined isError', { content: [], isError: undefined }, false],
  ['array structured content', { content: [], structuredContent: [1] }, false],
  ['null structured content', { content: [], structuredContent: null }, false],
  ['not an object', [text('a')], false],
  ['null', null, false],
  // Unchanged by the schema, but rare: left to it rather than recognised.
  ['an image', { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }, false],
  ['a text item with annotations', { content: [{ ...text('a'), annotations: { priority: 2 } }] }, false],
  ['a text item with _meta', { content: [{ ...text('a'), _meta: { x: 1 } }] }, false],
  ['_meta first', { _meta: { 'io.modelcontextprotocol/serverInfo': 5 }, content: [] }, false],
  ['an unknown key', { content: [], toolResult: 1 }, false],
];

/** Deep-equal with every object's keys in the same order: what the wire would carry alike. */
function identical(a: unknown, b: unknown): boolean {
  if (!isDeepStrictEqual(a, b)) return false;
  if (typeof a !== 'object' || a === null) return true;
  const keys = Object.keys(a);
  if (keys.join('\0') !== Object.keys(b as object).join('\0')) return false;
  return keys.every((k) => identical((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

// The server's check is the 2025 wire codec's; the upstream side's, the neutral specTypeSchemas one.
const codec = wireCodecOf(new Server({ name: 'x', version: '1' }, { capabilities: { tools: {} } }), (m) => {
  throw new Error(m);
})!;

/** Whether both SDK schemas accept `value` and hand back a value identical to it. */
async function sdkKeeps(value: unknown): Promise<boolean> {
  const wire = codec.validateResult('tools/call', value);
  const neutral = await specTypeSchemas.CallToolResult['~standard'].validate(value);
  return wire.ok && identical(wire.value, value) && !neutral.issues && identical((neutral as { value: unknown }).value, value);
}

describe('unchangedBySdkSchema', () => {
  it.each(results)('%s', async (_, value, expected) => {
    expect(unchangedBySdkSchema(value)).toBe(expected);
    // Where it says yes, both schemas accept the result and return it as it is.
    if (expected) expect(await sdkKeeps(value)).toBe(true);
  });

  it('agrees with the schemas on every order and subset of the keys it knows', async () => {
    const values: Record<string, unknown> = { content: [text('a')], structuredContent: { z: 1, a: [2] }, isError: true, _meta: {} };
    const orders = (keys: string[]): string[][] =>
      keys.length === 0 ? [[]] : keys.flatMap((k) => orders(keys.filter((o) => o !== k)).map((rest) => [k, ...rest]));
    const subsets = (keys: string[]): string[][] => keys.reduce<string[][]>((all, k) => [...all, ...all.map((s) => [...s, k])], [[]]);
    let recognised = 0;
    for (const subset of subsets(Object.keys(values)))
      for (const order of orders(subset)) {
        const value = Object.fromEntries(order.map((k) => [k, values[k]]));
        const ours = unchangedBySdkSchema(value);
        // Exact on these keys, except `_meta`, which is left to the schema wherever it stands.
        expect(ours, order.join(',')).toBe(!order.includes('_meta') && (await sdkKeeps(value)));
        if (ours) recognised++;
      }
    // content alone, and with each or both of the other two in the schema's order.
    expect(recognised).toBe(4);
  });
});

describe('callToolResult', () => {
  it.each(results)('%s: the same verdict and value as the SDK schema', async (_, value) => {
    const ours = await callToolResult['~standard'].validate(value);
    const sdk = await specTypeSchemas.CallToolResult['~standard'].validate(value);
    expect(ours).toEqual(sdk);
  });

  it('returns a plain text result as it is, without the schema', async () => {
    const value = { content: [text('a')] };
    const ours = await callToolResult['~standard'].validate(value);
    expect(ours).toEqual({ value });
    expect((ours as { value: unknown }).value).toBe(value);
  });
});
