// prompts/get and resources/read: like tools/call (tool-calls.ts) in how they reach the client — a
// handler may ask (`ctx.elicit`) or return `inputRequired(…)` — but never tasks; a failure is a
// JSON-RPC error, an unknown URI -32602 with the URI in `data` (SEP-2164).
import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { UnknownNameError } from '../registry/errors.js';
import type { HostClient } from '../registry/clients.js';
import type { CallOptions, Registry } from '../registry/registry.js';
import { drive, inputOf, resumed, sealedState, valueAnswer, wire } from './answers.js';
import { channelFor, isModern, type SessionLogLevel } from './channel.js';
import { DetachedRun } from './paused-calls.js';
import type { HostServices } from './services.js';

export interface ReadCallOptions {
  client: HostClient;
  services: HostServices;
  session: SessionLogLevel;
  toProtocolError(error: unknown): Error;
}

export function installReadCalls(server: Server, registry: Registry, options: ReadCallOptions): void {
  const { services } = options;

  /** Runs `read` for the request, directly (2025 era) or detached (2026 era: it may pause for the client). */
  async function serve(ctx: ServerContext, name: string, read: (call: CallOptions) => Promise<unknown>, onError: (e: unknown) => Error) {
    const finish = (value: unknown) => valueAnswer(value, name, ctx, services);
    const sealed = sealedState(ctx);
    try {
      if (sealed?.k === 'p') return await drive(resumed(sealed, ctx, services), ctx, services, finish);
      const channel = channelFor(server, ctx, options.session, inputOf(ctx, sealed, name));
      if (!isModern(server)) return await finish(await read({ signal: ctx.mcpReq.signal, client: options.client, channel }));
      const run = new DetachedRun<unknown>(
        (signal, broker) => read({ signal, client: options.client, channel, broker }),
        options.client.hold(),
      );
      return await drive(run, ctx, services, finish);
    } catch (error) {
      throw onError(error);
    }
  }

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    return wire<'prompts/get'>(await serve(ctx, name, (call) => registry.getPrompt(name, args, call), options.toProtocolError));
  });

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params;
    const notFound = (error: unknown) =>
      error instanceof UnknownNameError
        ? new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource ${uri.slice(0, 200)} not found`, { uri })
        : options.toProtocolError(error);
    return wire<'resources/read'>(await serve(ctx, uri, (call) => registry.readResource(uri, call), notFound));
  });
}
