// MCP over stdio for a client that spawns mcphost. `serveStdio` serves both protocol eras; stdout
// carries protocol only (every log goes to stderr).
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage, Server } from '@modelcontextprotocol/server';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../backend/types.js';
import type { Registry } from '../registry/registry.js';
import { HostClient } from '../registry/clients.js';
import { createServer, type ServerInfo } from './mcp-server.js';
import { attachListChanged } from './notify.js';
import { createServices } from './services.js';
import { holdListenWatches, listenedResources } from './subscriptions.js';
import { createStdioTransport } from './stdio-transport.js';
import { SessionLogLevel } from './channel.js';
import { fastToolCalls } from './sdk-bypass/tool-call.js';
import { toolSurface } from '../discover/surface.js';

export interface StdioServing {
  close(): Promise<void>;
  /** Resolves when the client closes stdin. */
  closed: Promise<void>;
  /** How many tools/call requests the fast path answered (sdk-bypass/tool-call.ts). */
  fastPathCalls(): number;
}

/** The process's stdin and stdout, or other streams (tests serve in-process over a pair). */
export interface StdioStreams {
  stdin: Readable;
  stdout: Writable;
}

export interface StdioOptions {
  /** false: every request goes through the SDK server (sdk-bypass/tool-call.ts is off; tests compare the two). */
  fastPath?: boolean;
}

export function serveOnStdio(
  registry: Registry,
  info: ServerInfo,
  logger: Logger,
  { stdin, stdout }: StdioStreams = { stdin: process.stdin, stdout: process.stdout },
  options: StdioOptions = {},
): StdioServing {
  const unsubscribers: Array<() => void> = [];
  // One pipe, one client, whichever era it speaks (serveStdio pins one instance to the connection).
  const client = new HostClient('stdio');
  const services = createServices(process.env, registry.limits);
  let pinned: Server | undefined;
  // A 2026-era listen stream's resource subscriptions last until its request is cancelled.
  const listens = new Map<string | number, () => void>();
  const observe = (message: JSONRPCMessage) => {
    const uris = listenedResources(message);
    if (uris.length > 0 && 'id' in message) {
      const ended = new Promise<void>((resolve) => listens.set(message.id as string | number, resolve));
      holdListenWatches(registry, uris, (uri) => void pinned?.sendResourceUpdated({ uri }).catch(() => undefined), ended, logger);
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (id !== undefined) listens.get(id)?.();
    }
  };
  const session = new SessionLogLevel();
  const onerror = (error: Error) => logger.debug(`stdio: ${error.message}`);
  const fast =
    options.fastPath === false
      ? undefined
      : fastToolCalls(registry, {
          server: () => pinned,
          client,
          session,
          surface: toolSurface(registry),
          send: (message) => transport.send(message),
          onerror,
          warn: (message) => logger.warn(`stdio: ${message}`),
        });
  const transport = createStdioTransport(stdin, stdout, observe, fast?.take);
  const handle = serveStdio(
    ({ era }) => {
      client.era = era;
      const server = createServer(registry, info, { confirmProgress: era === 'legacy', client, era, services, session });
      unsubscribers.push(attachListChanged(registry, server));
      pinned = server;
      return server;
    },
    { transport, onerror },
  );
  const closed = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  void closed.then(() => fast?.close());
  return {
    closed,
    fastPathCalls: () => fast?.taken ?? 0,
    async close() {
      fast?.close();
      unsubscribers.forEach((u) => u());
      for (const end of listens.values()) end();
      services.close();
      await handle.close().catch(() => undefined);
      client.close(logger);
    },
  };
}
