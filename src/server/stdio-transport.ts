// The SDK's stdio transport drops a line that is not valid JSON-RPC without a word. JSON-RPC wants
// an answer (-32700 for bad JSON, -32600 for an invalid request), so lines are checked here first:
// valid messages go on to the SDK transport, the others are answered on the same stdout.
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { parseJSONRPCMessage, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { LineBuffer } from '../lib/json-lines.js';

const MAX_LINE = 16 * 1024 * 1024;

function errorFor(line: string): JSONRPCMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${(error as Error).message}` } } as unknown as JSONRPCMessage;
  }
  try {
    parseJSONRPCMessage(value);
    return undefined;
  } catch {
    const id = (value as { id?: unknown } | null)?.id;
    const message = Array.isArray(value) ? 'Invalid Request: batches are not supported' : 'Invalid Request: not a JSON-RPC 2.0 message';
    return { jsonrpc: '2.0', id: typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null, error: { code: -32600, message } } as unknown as JSONRPCMessage;
  }
}

export function createStdioTransport(stdin: Readable = process.stdin, stdout: Writable = process.stdout): StdioServerTransport {
  const valid = new PassThrough();
  const transport = new StdioServerTransport(valid, stdout, { maxBufferSize: MAX_LINE });
  const lines = new LineBuffer();
  stdin.setEncoding('utf8');
  stdin.on('data', (chunk: string) => {
    for (const line of lines.push(chunk)) {
      const problem = errorFor(line);
      if (problem) void transport.send(problem).catch(() => undefined);
      else valid.write(`${line}\n`);
    }
    if (lines.size > MAX_LINE) {
      lines.push('\n');
      void transport.send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: a message exceeded ${MAX_LINE} bytes` } } as unknown as JSONRPCMessage).catch(() => undefined);
    }
  });
  const end = () => valid.end();
  stdin.once('end', end);
  stdin.once('close', end);
  return transport;
}
