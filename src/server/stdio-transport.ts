// The SDK's stdio transport drops a line that is not valid JSON-RPC without a word. JSON-RPC wants
// an answer (-32700 for bad JSON, -32600 for an invalid request), so stdin is read here: each line
// is parsed and validated once, valid messages are handed to the SDK transport's `onmessage`, and
// the others are answered through its `send` on the same stdout. The SDK transport keeps writing,
// back-pressure and closing; its own input is a stream that only ever ends.
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { parseJSONRPCMessage, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { LineBuffer } from '../kit/json-lines/peer.js';
import { isPlainMessage } from '../kit/mcp/sdk-bypass/message-shape.js';
import { messageTooLarge } from '../registry/limits.js';

const MAX_LINE = 16 * 1024 * 1024;

type Checked = { message: JSONRPCMessage; error?: undefined } | { error: JSONRPCMessage; message?: undefined };

function check(line: string): Checked {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return {
      error: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: `Parse error: ${(error as Error).message}` },
      } as unknown as JSONRPCMessage,
    };
  }
  // Counted before the SDK validates it: zod walking 300,000 keys would hold the connection for seconds.
  const tooLarge = messageTooLarge(value);
  if (tooLarge) return invalid(requestId(value), `Invalid Request: ${tooLarge}`);
  if (isPlainMessage(value)) return { message: value };
  try {
    return { message: parseJSONRPCMessage(value) };
  } catch {
    return invalid(
      requestId(value),
      Array.isArray(value) ? 'Invalid Request: batches are not supported' : 'Invalid Request: not a JSON-RPC 2.0 message',
    );
  }
}

function invalid(id: string | number | null, message: string): Checked {
  return { error: { jsonrpc: '2.0', id, error: { code: -32600, message } } as unknown as JSONRPCMessage };
}

/** The id to answer a message with: its own when it is a valid one, else null. */
export function requestId(value: unknown): string | number | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}

const MODERN_ENVELOPE = 'io.modelcontextprotocol/protocolVersion';

/**
 * A request before the session is open is refused, as the protocol asks: the session opens with
 * `initialize` (2025 era) or with the first request that carries the 2026-era envelope
 * (`server/discover` or any request whose `_meta` names its protocol version). Pings may come first.
 */
function sessionGate() {
  let open = false;
  return (message: JSONRPCMessage): JSONRPCMessage | undefined => {
    if (open || !('method' in message) || !('id' in message)) return undefined;
    const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    if (message.method === 'initialize' || message.method === 'server/discover' || meta?.[MODERN_ENVELOPE] !== undefined) {
      open = true;
      return undefined;
    }
    if (message.method === 'ping') return undefined;
    return {
      jsonrpc: '2.0',
      id: message.id,
      error: { code: -32600, message: `Invalid Request: ${message.method} before initialize (send initialize first)` },
    } as unknown as JSONRPCMessage;
  };
}

export function createStdioTransport(
  stdin: Readable = process.stdin,
  stdout: Writable = process.stdout,
  observe?: (message: JSONRPCMessage) => void,
  /** Answers a message past the SDK (sdk-bypass/tool-call.ts): true when it did. */
  take?: (message: JSONRPCMessage) => boolean,
): StdioServerTransport {
  const gate = sessionGate();
  const input = new PassThrough();
  const transport = new StdioServerTransport(input, stdout, { maxBufferSize: MAX_LINE });
  const lines = new LineBuffer();
  stdin.setEncoding('utf8');
  stdin.on('data', (chunk: string) => {
    for (const line of lines.push(chunk)) {
      const checked = check(line);
      const refused = checked.error ?? gate(checked.message!);
      if (refused) void transport.send(refused).catch(() => undefined);
      else {
        observe?.(checked.message!);
        if (!take?.(checked.message!)) transport.onmessage?.(checked.message!);
      }
    }
    if (lines.size > MAX_LINE) {
      lines.push('\n');
      void transport
        .send({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `Invalid Request: a message exceeded ${MAX_LINE} bytes` },
        } as unknown as JSONRPCMessage)
        .catch(() => undefined);
    }
  });
  const end = () => input.end();
  stdin.once('end', end);
  stdin.once('close', end);
  return transport;
}
