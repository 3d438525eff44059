// An SDK client Transport over a spawned `mcphost serve` that also records every line the server
// writes to stdout, so a test can prove stdout carried protocol and nothing else. The SDK client
// still speaks the protocol; this only owns the pipes.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { execa, type ResultPromise } from 'execa';
import { BIN } from './paths.js';

export class RecordingStdioTransport implements Transport {
  readonly lines: string[] = [];
  stderr = '';
  child?: ResultPromise;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pending = '';

  constructor(
    private readonly args: string[],
    private readonly options: { cwd: string; env: Record<string, string | undefined> },
  ) {}

  async start(): Promise<void> {
    const child = execa(process.execPath, [BIN, 'serve', ...this.args], {
      cwd: this.options.cwd,
      env: this.options.env,
      extendEnv: false,
      reject: false,
      buffer: false,
    });
    this.child = child;
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      const parts = (this.pending + chunk).split('\n');
      this.pending = parts.pop() ?? '';
      for (const line of parts) {
        this.lines.push(line);
        try {
          this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
        } catch {
          // Not JSON: recorded above; the test reports it.
        }
      }
    });
    child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
    void child.then(() => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child!.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.child?.stdin?.end();
    await this.child;
  }

  /** Lines on stdout that are not a JSON-RPC 2.0 message. */
  strayLines(): string[] {
    return [...this.lines, ...(this.pending ? [this.pending] : [])].filter((line) => {
      try {
        return (JSON.parse(line) as { jsonrpc?: string }).jsonrpc !== '2.0';
      } catch {
        return true;
      }
    });
  }
}
