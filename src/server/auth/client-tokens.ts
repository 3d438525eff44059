// Which named client (`http.clients.<name>`) a request is: by the digest of its bearer token,
// compared with every client's in constant time, or — for a signed-in OAuth caller — by its subject,
// else its scopes. Holds digests only: a token given as a reference is hashed as it is read.
import { createHash, timingSafeEqual } from 'node:crypto';
import { TOKEN_HASH, type NamedClientConfig } from '../../config/named-clients.js';
import type { OAuthIdentity } from '../../registry/identity.js';

/** SHA-256 of a credential: equal-length digests, so timingSafeEqual compares in constant time whatever was sent. */
function tokenDigest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The `sha256:<hex>` form of a token, as the config keeps it. */
export function tokenHash(token: string): string {
  return `sha256:${tokenDigest(token).toString('hex')}`;
}

export interface ClientTokens {
  /** Whether any client has a token (requests must then carry a credential). */
  readonly any: boolean;
  /** The client whose token this is, or undefined. */
  byToken(token: string): string | undefined;
  /** The client a signed-in caller is: the first naming its subject, else the first holding one of its scopes. */
  byOAuth(identity: OAuthIdentity): string | undefined;
}

export function clientTokens(clients: Readonly<Record<string, Readonly<NamedClientConfig>>>): ClientTokens {
  const digests: Array<{ name: string; digest: Buffer }> = [];
  for (const [name, c] of Object.entries(clients)) {
    if (c.token === undefined) continue;
    digests.push({ name, digest: TOKEN_HASH.test(c.token) ? Buffer.from(c.token.slice('sha256:'.length), 'hex') : tokenDigest(c.token) });
  }
  const entries = Object.entries(clients);
  return {
    any: digests.length > 0,
    byToken(token) {
      const given = tokenDigest(token);
      let found: string | undefined;
      // Every digest is compared, the match or not: the time taken says nothing of which (or whether one) matched.
      for (const d of digests) if (timingSafeEqual(given, d.digest) && found === undefined) found = d.name;
      return found;
    },
    byOAuth(identity) {
      const bySubject = entries.find(([, c]) => c.subjects.includes(identity.subject));
      if (bySubject) return bySubject[0];
      return entries.find(([, c]) => c.scopes.some((s) => identity.scopes.includes(s)))?.[0];
    },
  };
}
