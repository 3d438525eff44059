// Connects the official SDK client to a real `mcphost serve` child, over stdio or HTTP.
import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { execa, type ResultPromise } from 'execa';
import { BIN } from './paths.js';
import { isolatedEnv } from './cli.js';

export type Era = 'legacy' | 'modern';

/** `options`: what the client declares (capabilities), beside the era it is pinned to. */
function newClient(era: Era, options: ClientOptions = {}): Client {
  return new Client(
    { name: 'mcphost-test', version: '1.0.0' },
    era === 'modern' ? { ...options, versionNegotiation: { mode: { pin: '2026-07-28' } } } : options,
  );
}

export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
  close(): Promise<void>;
}

export async function connectStdio(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; era?: Era; client?: ClientOptions },
): Promise<StdioSession> {
  const env = (options.env ?? isolatedEnv(options.cwd)) as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', ...args],
    cwd: options.cwd,
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = newClient(options.era ?? 'legacy', options.client);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

export interface HttpServer {
  url: string;
  child: ResultPromise;
  stderr(): string;
  connect(era?: Era, headers?: Record<string, string>, options?: ClientOptions): Promise<Client>;
  stop(): Promise<void>;
}

/** Starts `mcphost serve --transport http --port 0` and waits for the URL it prints on stderr. */
export async function startHttp(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<HttpServer> {
  const child = execa(process.execPath, [BIN, 'serve', '--transport', 'http', '--port', '0', ...args], {
    cwd: options.cwd,
    env: options.env ?? isolatedEnv(options.cwd),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 15_000);
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /serving .* on (http:\/\/\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void child.then((r) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${r.exitCode}):\n${stderr}`));
    });
  });
  const clients: Client[] = [];
  return {
    url,
    child,
    stderr: () => stderr,
    async connect(era: Era = 'legacy', headers?: Record<string, string>, options?: ClientOptions) {
      const client = newClient(era, options);
      await client.connect(new StreamableHTTPClientTransport(new URL(url), headers ? { requestInit: { headers } } : undefined));
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.allSettled(clients.map((c) => c.close()));
      child.kill('SIGTERM');
      await child;
    },
  };
}
