// The one function that turns an HTTP request into "who is this": the static bearer token
// (`--token`), or an access token the `http.auth` issuer signed (resource-server.ts), or nobody
// when neither is configured. A refusal is the HTTP answer to send as it is (401 with the
// WWW-Authenticate challenge that names mcphost's Protected Resource Metadata).
import type { IncomingMessage } from 'node:http';
import { ANONYMOUS, type Identity } from '../../registry/identity.js';
import type { Challenge, ResourceServer } from './resource-server.js';

export interface IdentifyOptions {
  /** The static token check: 'no-token-set', or whether the request holds it (compared in constant time). */
  holdsToken(req: IncomingMessage): 'no-token-set' | boolean;
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
  return async (req) => {
    const holds = options.holdsToken(req);
    if (holds === true) return { identity: { kind: 'token', subject: 'token' } };
    if (options.resourceServer) return options.resourceServer.verify(firstValue(req.headers.authorization));
    if (holds !== 'no-token-set') return { challenge: TOKEN_CHALLENGE };
    // Nobody proved who they are: the peer's address is all that tells callers apart.
    const address = req.socket.remoteAddress;
    return { identity: address ? { kind: 'anonymous', address } : ANONYMOUS };
  };
}

function firstValue(header: string | undefined): string | undefined {
  return header?.split(',')[0]?.trim() || undefined;
}
