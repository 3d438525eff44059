// mcphost's own MCP server for a client in this process: `serveOnStdio` (both eras, one server
// instance pinned to the connection, as `mcphost serve` gives a stdio client) over a pair of
// in-memory streams, one JSON-RPC message a line. `mcphost call --as-task` runs its call through
// it, so an in-process task is created, polled and cancelled by the same code a remote one is.
import { PassThrough } from 'node:stream';
import { Client, deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { Logger } from '../backend/types.js';
import type { Registry } from '../registry/registry.js';
import { serveOnStdio } from '../server/stdio.js';
import { carryTaskResults } from '../kit/mcp/task-results.js';

/**
 * An SDK client transport over the two streams an in-process `serveOnStdio` reads and writes: one
 * JSON-RPC message a line, as on a real pipe (the SDK's in-memory pair serves only the 2025 era).
 * Tests record the wire through `received`.
 */
export class StreamPairTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly toServer = new PassThrough();
  private readonly fromServer = new PassThrough();
  /** What the server side reads and writes (serveOnStdio's streams). */
  readonly serverSide = { stdin: this.toServer, stdout: this.fromServer };
  private pending = '';

  async start(): Promise<void> {
    this.fromServer.setEncoding('utf8');
    this.fromServer.on('data', (chunk: string) => {
      const lines = (this.pending + chunk).split('\n');
      this.pending = lines.pop() ?? '';
      for (const line of lines) this.received(line);
    });
  }

  /** One whole line from the server, read as the SDK's stdio transport reads one. */
  protected received(line: string): void {
    if (!line.trim()) return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      return this.onerror?.(error as Error);
    }
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

export interface Loopback {
  client: Client;
  close(): Promise<void>;
}

/** A 2026-07-28 client of `registry`, connected; its transport hands task results over (task-results.ts). */
export async function connectLoopback(registry: Registry, logger: Logger): Promise<Loopback> {
  const transport = new StreamPairTransport();
  const serving = serveOnStdio(registry, { name: 'mcphost', version: 'in-process' }, logger, transport.serverSide);
  carryTaskResults(transport);
  const client = new Client({ name: 'mcphost call', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  try {
    await client.connect(transport);
  } catch (error) {
    await serving.close();
    throw error;
  }
  return {
    client,
    async close() {
      await client.close().catch(() => undefined);
      await serving.close();
    },
  };
}
