// Who sent a request, as the rest of the host sees it: the one shape every HTTP request is turned
// into (src/server/auth/identify.ts) before any MCP work, and which the HostClient of that request carries. Never a
// credential: the static token and the access token stay in the check that proved them.

interface Named {
  /** The named client (`http.clients.<name>`) the caller is, by its token or by the OAuth subject or scope mapped onto it. */
  client?: string;
}

/** No credential was asked for: loopback without a token or `http.auth` (stdio and one-shot calls too). */
export interface AnonymousIdentity extends Named {
  kind: 'anonymous';
  /** The peer's address over HTTP (absent in-process and over stdio). */
  address?: string;
}

/** A bearer token: `--token` / `http.token` (subject `token`), or a named client's (subject: its name). */
interface TokenIdentity extends Named {
  kind: 'token';
  subject: string;
}

/** A signed-in user (or service) whose access token the `http.auth` issuer signed for mcphost. */
export interface OAuthIdentity extends Named {
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

/**
 * The key of a caller: what owns tasks, sessions and paused calls, and what fairness and caps count
 * by. The named client, else the token's subject, else the OAuth subject (with its issuer), else the
 * peer's address; `local` in-process and over stdio.
 */
export function callerKey(identity: Identity): string {
  if (identity.client !== undefined) return `client:${identity.client}`;
  if (identity.kind === 'token') return `token:${identity.subject}`;
  if (identity.kind === 'oauth') return `oauth:${identity.issuer} ${identity.subject}`;
  return identity.address ? `address:${identity.address}` : 'local';
}

/** Whether two requests come from the same caller (a 2025-era session belongs to the one that opened it). */
export function sameCaller(a: Identity, b: Identity): boolean {
  return callerKey(a) === callerKey(b);
}
