// The relay skips two SDK schemas for the shapes nearly every message and result has
// (kit/mcp/jsonrpc-shape.ts, kit/mcp/call-tool.ts). Skipping is only right where the schema would
// have accepted the value and returned it unchanged: checked here against the SDK's own schemas,
// on common shapes and on the near misses each shortcut must leave to the schema.
import { parseJSONRPCMessage, RELATED_TASK_META_KEY, specTypeSchemas } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { isPlainMessage } from '../../src/kit/mcp/jsonrpc-shape.js';
import { callToolResult } from '../../src/kit/mcp/call-tool.js';

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
const results: Array<[string, unknown]> = [
  ['text content', { content: [text('a'), text('b')] }],
  ['an error result', { content: [text('failed')], isError: true }],
  ['structured content', { content: [text('{}')], structuredContent: { a: [1, { b: 2 }] } }],
  ['no content', { content: [] }],
  // The schema's business: it fills, strips or refuses.
  ['missing content', { isError: false }],
  ['an image', { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] }],
  ['a text item with an extra key', { content: [{ ...text('a'), extra: 1 }] }],
  ['a text item with annotations', { content: [{ ...text('a'), annotations: { priority: 2 } }] }],
  ['a number as text', { content: [{ type: 'text', text: 5 }] }],
  ['a string isError', { content: [], isError: 'yes' }],
  ['_meta', { content: [], _meta: { 'io.modelcontextprotocol/serverInfo': 5 } }],
  ['an unknown key', { content: [], toolResult: 1 }],
  ['content not an array', { content: text('a') }],
  ['not an object', [text('a')]],
];

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
