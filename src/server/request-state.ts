// The `requestState` a client echoes on the retry of a multi-round-trip request (SEP-2322) is
// attacker-controlled: every value mcphost hands out is sealed (HMAC-SHA256, the SDK's codec) and
// bound to the method and the caller (callerKey), so a client can neither alter a plugin's state nor
// replay it elsewhere, and another caller's (a paused call's question relayed to it) is, for it, as
// forged as one never handed out; a
// tampered one is refused with the SDK's frozen -32602 before any handler runs. The key is made per
// process unless MCPHOST_STATE_KEY gives one (replicas behind a balancer share it).
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { callerKey, type Identity } from '../registry/identity.js';
import { identityInfo, identityOf } from './auth/identity-info.js';

/** What a sealed requestState carries: a handler's own state for a named tool or prompt, or a paused call. */
export type Sealed = { k: 's'; n: string; s: unknown } | { k: 'p'; id: string };

/** How long a handed-out requestState stays valid: a person may take a while to answer a form. */
const TTL_SECONDS = 3600;

/** The key of the seal (and of held ids' tags): MCPHOST_STATE_KEY, else random for this process. */
export function stateKey(env: NodeJS.ProcessEnv = process.env): Uint8Array {
  const configured = env.MCPHOST_STATE_KEY;
  // A key too short used to be replaced by a random one without a word: replicas then refused each
  // other's retries as forged, which looked like a client bug.
  if (configured !== undefined && Buffer.byteLength(configured) < 32)
    throw new Error(
      `MCPHOST_STATE_KEY is ${Buffer.byteLength(configured)} bytes; give one of 32 bytes or more (e.g. openssl rand -hex 32), the same on every replica, or unset it`,
    );
  return configured === undefined ? randomBytes(32) : Buffer.from(configured);
}

export function createStateSeal(env: NodeJS.ProcessEnv = process.env, key: Uint8Array = stateKey(env)): RequestStateCodec<Sealed> {
  return createRequestStateCodec<Sealed>({
    key,
    ttlSeconds: TTL_SECONDS,
    bind: (ctx: ServerContext) => bindingOf(ctx.mcpReq.method, identityOf(ctx.http?.authInfo)),
  });
}

/** What a sealed state is bound to: the method it was handed out for, and its caller. */
function bindingOf(method: string, identity: Identity): string {
  return `${method}\u0000${callerKey(identity)}`;
}

/** The context a seal needs outside a handler (the HTTP layer, before the SDK): the method and the caller. */
export function sealContext(method: string, identity: Identity): ServerContext {
  return { mcpReq: { method }, http: { authInfo: identityInfo(identity) } } as unknown as ServerContext;
}

export function isSealed(value: unknown): value is Sealed {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (v.k === 's' && typeof v.n === 'string') || (v.k === 'p' && typeof v.id === 'string');
}
