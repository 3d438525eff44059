// The way back from one request to its client (registry/asks.ts's ClientChannel), built from the
// SDK's request context: the client's capabilities (declared at initialize for a 2025-era session,
// in the request's `_meta` for a 2026-era one), requests to it (2025 era only: they ride the
// request's own stream, so they reach this client and no other), and log messages at the level it
// asked for.
import { CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, type Server, type ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { ClientCapabilities, ClientLogLevel } from '../backend/types.js';
import type { ClientChannel } from '../registry/asks.js';

const LOG_LEVELS: readonly ClientLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

const MODERN = '2026-07-28';

/** A person answers elicitations: the call's own deadline bounds them, not the SDK's 60 s default. */
const ASK_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export function isModern(server: Server): boolean {
  // Revisions are dates: 2026-07-28 and later have no initialize, no server→client requests.
  const version = server.getNegotiatedProtocolVersion();
  return version !== undefined && version >= MODERN;
}

/** The level a 2025-era session set with `logging/setLevel` (one server instance serves one session). */
export class SessionLogLevel {
  level?: ClientLogLevel;
  /** Replaces the SDK's handler, so the level can also be forwarded to a mounted server. */
  install(server: Server): void {
    server.setRequestHandler('logging/setLevel', async (request) => {
      this.level = request.params.level as ClientLogLevel;
      return {};
    });
  }
}

function passes(level: ClientLogLevel, threshold: ClientLogLevel | undefined): boolean {
  return threshold === undefined || LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/** What the client of the request declared: at initialize (2025 era), in the request's envelope (2026 era). */
export function capabilitiesOf(server: Server, ctx: ServerContext): ClientCapabilities {
  if (!isModern(server)) return (server.getClientCapabilities() ?? {}) as ClientCapabilities;
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? {}) as ClientCapabilities;
}

export function channelFor(server: Server, ctx: ServerContext, session: SessionLogLevel, input?: ClientChannel['input']): ClientChannel {
  const modern = isModern(server);
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = capabilitiesOf(server, ctx);
  // 2026 era: no logLevel in the request means no log messages; 2025 era: none set means all.
  const requested = modern ? (envelope?.[LOG_LEVEL_META_KEY] as ClientLogLevel | undefined) : (session.level ?? 'debug');
  const logLevel = requested && LOG_LEVELS.includes(requested) ? requested : undefined;
  return {
    era: modern ? 'modern' : 'legacy',
    capabilities,
    logLevel,
    ...(input && { input }),
    ...(!modern && {
      send: (request, signal) =>
        ctx.mcpReq.send({ method: request.method, params: request.params ?? {} }, z.looseObject({}), {
          signal,
          timeout: ASK_TIMEOUT_MS,
        }) as Promise<unknown>,
    }),
    log: async (level, data, logger) => {
      if (!logLevel || !passes(level, logLevel)) return;
      await ctx.mcpReq.notify({ method: 'notifications/message', params: { level, data, ...(logger !== undefined && { logger }) } });
    },
  };
}
