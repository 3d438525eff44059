// An SDK client transport over the two streams an in-process `serveOnStdio` reads and writes: one
// JSON-RPC message a line, as on a real pipe. The SDK's in-memory pair serves only the 2025 era;
// `serveOnStdio` (the SDK's serveStdio) serves both, one server instance pinned per connection.
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

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

  /** One whole line from the server; a subclass may also record it. */
  protected received(line: string): void {
    if (line.trim()) this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}
