// The `requestState` a client echoes on the retry of a multi-round-trip request (SEP-2322) is
// attacker-controlled: every value mcphost hands out is sealed (HMAC-SHA256, the SDK's codec) and
// bound to the method and the caller (callerKey), so a client can neither alter a plugin's state nor
// replay it elsewhere, and another caller's (a paused call's question relayed to it) is, for it, as
// forged as one never handed out; a
// tampered one is refused with the SDK's frozen -32602 before any handler runs. The key is made per
// process unless MCPHOST_STATE_KEY gives one (replicas behind a balancer share it).
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { callerKey } from '../registry/identity.js';
import { identityOf } from './auth/identity-info.js';

/** What a sealed requestState carries: a handler's own state for a named tool or prompt, or a paused call. */
export type Sealed = { k: 's'; n: string; s: unknown } | { k: 'p'; id: string };

/** How long a handed-out requestState stays valid: a person may take a while to answer a form. */
const TTL_SECONDS = 3600;

export function createStateSeal(env: NodeJS.ProcessEnv = process.env): RequestStateCodec<Sealed> {
  const configured = env.MCPHOST_STATE_KEY;
  // A key too short used to be replaced by a random one without a word: replicas then refused each
  // other's retries as forged, which looked like a client bug.
  if (configured !== undefined && Buffer.byteLength(configured) < 32)
    throw new Error(
      `MCPHOST_STATE_KEY is ${Buffer.byteLength(configured)} bytes; give one of 32 bytes or more (e.g. openssl rand -hex 32), the same on every replica, or unset it`,
    );
  const key = configured ?? randomBytes(32);
  return createRequestStateCodec<Sealed>({
    key,
    ttlSeconds: TTL_SECONDS,
    bind: (ctx: ServerContext) => `${ctx.mcpReq.method}\u0000${callerKey(identityOf(ctx.http?.authInfo))}`,
  });
}

export function isSealed(value: unknown): value is Sealed {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (v.k === 's' && typeof v.n === 'string') || (v.k === 'p' && typeof v.id === 'string');
}
