// mcphost's own MCP server for a client in this process: `serveOnStdio` (both eras, one server
// instance pinned to the connection, as `mcphost serve` gives a stdio client) over a pair of
// in-memory streams, one JSON-RPC message a line. `mcphost call --as-task` runs its call through
// it, so an in-process task is created, polled and cancelled by the same code a remote one is.
import { PassThrough } from 'node:stream';
import { Client, ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { Logger } from '../backend/types.js';
import type { Registry } from '../registry/registry.js';
import { serveOnStdio } from '../server/stdio.js';
import { carryTaskResults } from '../kit/mcp/task-results.js';

class StreamPairTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly toServer = new PassThrough();
  private readonly fromServer = new PassThrough();
  private readonly buffer = new ReadBuffer();
  readonly serverSide = { stdin: this.toServer, stdout: this.fromServer };

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      try {
        for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
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
