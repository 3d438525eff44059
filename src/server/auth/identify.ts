// The one function that turns an HTTP request into "who is this": a named client's bearer token
// (`http.clients`), the static token (`--token`), or an access token the `http.auth` issuer signed
// (resource-server.ts, its subject or scope mapped onto a named client), or nobody when none is
// configured. A refusal is the HTTP answer to send as it is (401 with the WWW-Authenticate challenge
// that names mcphost's Protected Resource Metadata).
import type { IncomingMessage } from 'node:http';
import { ANONYMOUS, type Identity } from '../../registry/identity.js';
import { bearer } from '../http-guards.js';
import type { ClientTokens } from './client-tokens.js';
import type { Challenge, ResourceServer } from './resource-server.js';

export interface IdentifyOptions {
  /** The static token check: 'no-token-set', or whether the request holds it (compared in constant time). */
  holdsToken(req: IncomingMessage): 'no-token-set' | boolean;
  clients?: ClientTokens;
  resourceServer?: ResourceServer;
}

type Identified = { identity: Identity } | { challenge: Challenge };

const TOKEN_CHALLENGE: Challenge = {
  status: 401,
  headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer' },
  body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized: send Authorization: Bearer <token>' }, id: null }),
};

export type Identify = (req: IncomingMessage) => Promise<Identified>;

export function createIdentify(options: IdentifyOptions): Identify {
  const { clients, resourceServer } = options;
  return async (req) => {
    const token = bearer(req.headers.authorization);
    const client = token !== undefined && clients?.any ? clients.byToken(token) : undefined;
    if (client !== undefined) return { identity: { kind: 'token', subject: client, client } };
    const holds = options.holdsToken(req);
    if (holds === true) return { identity: { kind: 'token', subject: 'token' } };
    if (resourceServer) {
      const verified = await resourceServer.verify(firstValue(req.headers.authorization));
      if (!('identity' in verified)) return verified;
      const mapped = clients?.byOAuth(verified.identity);
      return { identity: mapped === undefined ? verified.identity : { ...verified.identity, client: mapped } };
    }
    if (holds !== 'no-token-set' || clients?.any) return { challenge: TOKEN_CHALLENGE };
    // Nobody proved who they are: the peer's address is all that tells callers apart.
    const address = req.socket.remoteAddress;
    return { identity: address ? { kind: 'anonymous', address } : ANONYMOUS };
  };
}

function firstValue(header: string | undefined): string | undefined {
  return header?.split(',')[0]?.trim() || undefined;
}
