// MCP over stdio for a client that spawns mcphost. `serveStdio` serves both protocol eras; stdout
// carries protocol only (every log goes to stderr).
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../backend/types.js';
import type { Registry } from '../registry/registry.js';
import { HostClient } from '../registry/clients.js';
import { createServer, type ServerInfo } from './mcp-server.js';
import { attachListChanged } from './notify.js';
import { createStdioTransport } from './stdio-transport.js';

export interface StdioServing {
  close(): Promise<void>;
  /** Resolves when the client closes stdin. */
  closed: Promise<void>;
}

/** The process's stdin and stdout, or other streams (tests serve in-process over a pair). */
export interface StdioStreams {
  stdin: Readable;
  stdout: Writable;
}

export function serveOnStdio(
  registry: Registry,
  info: ServerInfo,
  logger: Logger,
  { stdin, stdout }: StdioStreams = { stdin: process.stdin, stdout: process.stdout },
): StdioServing {
  const unsubscribers: Array<() => void> = [];
  // One pipe, one client, whichever era it speaks (a 2026-era client gets an instance per request).
  const client = new HostClient('stdio');
  const handle = serveStdio(
    ({ era }) => {
      const server = createServer(registry, info, { confirmProgress: era === 'legacy', client });
      unsubscribers.push(attachListChanged(registry, server));
      return server;
    },
    { transport: createStdioTransport(stdin, stdout), onerror: (error) => logger.debug(`stdio: ${error.message}`) },
  );
  const closed = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  return {
    closed,
    async close() {
      unsubscribers.forEach((u) => u());
      await handle.close().catch(() => undefined);
      client.close(logger);
    },
  };
}
