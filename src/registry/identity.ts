// Who sent a request, as the rest of the host sees it: the one shape every HTTP request is turned
// into (src/server/auth/identify.ts) before any MCP work, and which the HostClient of that request carries. Never a
// credential: the static token and the access token stay in the check that proved them.

/** No credential was asked for: loopback without a token or `http.auth` (stdio and one-shot calls too). */
export interface AnonymousIdentity {
  kind: 'anonymous';
}

/** The bearer token of `--token` / `http.token` (one shared credential). */
interface TokenIdentity {
  kind: 'token';
  subject: 'token';
}

/** A signed-in user (or service) whose access token the `http.auth` issuer signed for mcphost. */
export interface OAuthIdentity {
  kind: 'oauth';
  /** The token's `sub`. */
  subject: string;
  scopes: string[];
  /** The OAuth client it was issued to (`client_id` or `azp`), '' when the token names none. */
  clientId: string;
  issuer: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

export type Identity = AnonymousIdentity | TokenIdentity | OAuthIdentity;

export const ANONYMOUS: AnonymousIdentity = { kind: 'anonymous' };

/** Whether two requests come from the same caller (a 2025-era session belongs to the one that opened it). */
export function sameCaller(a: Identity, b: Identity): boolean {
  if (a.kind !== b.kind) return false;
  return a.kind === 'oauth' ? b.kind === 'oauth' && a.issuer === b.issuer && a.subject === b.subject : true;
}
