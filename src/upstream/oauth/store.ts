// Where a sign-in to one mounted server is kept: a JSON file per server and URL in the user's own
// mcphost folder (`~/.config/mcphost/oauth/`), readable by the user alone (0600 in a 0700 folder),
// written whole or not at all (the kit's atomic write), and changed under a lock that every mcphost
// process of the user takes (proper-lockfile), so two processes renewing at once make one renewal.
// The file holds the tokens; nothing here ever prints them.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type * as lockfileModule from 'proper-lockfile';
import { userConfigDir } from '../../config/cache-dir.js';
import { writeFileAtomic } from '../../kit/atomic-write.js';

/** What is kept of one sign-in. */
export interface SignInRecord {
  version: 1;
  server: string;
  url: string;
  /** The client mcphost registered (dynamic registration) or the metadata-document client id; not a pre-registered one. */
  client?: StoredOAuthClientInformation;
  /** The issuer a pre-registered client was first used with (its credentials go to no other). */
  clientIssuer?: string;
  /** Where the authorization server is and what it said of itself (RFC 9728 and RFC 8414 / OpenID discovery). */
  discovery?: OAuthDiscoveryState;
  /** The RFC 8707 resource the tokens are for. */
  resource?: string;
  tokens?: StoredOAuthTokens;
  /** When the access token expires (epoch ms), from `expires_in` at the time it was issued. */
  expiresAt?: number;
  signedInAt?: string;
  refreshedAt?: string;
  refreshes?: number;
  /** Set once the authorization server refused to renew the sign-in: why (no token is sent until the user signs in again). */
  needsSignIn?: string;
}

let lockfile: typeof lockfileModule | undefined;
// CommonJS, loaded on the first renewal only (a call that renews nothing never pays for it).
const lockLib = (): typeof lockfileModule => (lockfile ??= createRequire(import.meta.url)('proper-lockfile') as typeof lockfileModule);

function oauthDir(env: NodeJS.ProcessEnv): string {
  return path.join(userConfigDir(env), 'oauth');
}

/** One file per server name and URL: a URL changed in .mcprc is another server, with no tokens of the old one. */
function signInFile(env: NodeJS.ProcessEnv, server: string, url: string): string {
  const safe = server.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64);
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 12);
  return path.join(oauthDir(env), `${safe}-${hash}.json`);
}

class SignInFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInFileError';
  }
}

export class SignInStore {
  readonly file: string;
  private cached?: { ino: number; mtimeMs: number; size: number; record: SignInRecord | undefined };

  constructor(file: string) {
    this.file = file;
  }

  static for(env: NodeJS.ProcessEnv, server: string, url: string): SignInStore {
    return new SignInStore(signInFile(env, server, url));
  }

  /** The record as the file holds it now (re-read only when the file changed), or undefined when there is none. */
  read(): SignInRecord | undefined {
    let info;
    try {
      info = statSync(this.file);
    } catch {
      this.cached = undefined;
      return undefined;
    }
    if (this.cached && this.cached.ino === info.ino && this.cached.mtimeMs === info.mtimeMs && this.cached.size === info.size)
      return this.cached.record;
    if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
      throw new SignInFileError(
        `Refusing ${this.file}: others can read it (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}), and it holds sign-in tokens. ` +
          `Fix: chmod 600 ${this.file} (and sign in again if another user may have read it)`,
      );
    }
    let record: SignInRecord | undefined;
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<SignInRecord>;
      record = data && data.version === 1 && typeof data.server === 'string' ? (data as SignInRecord) : undefined;
    } catch {
      record = undefined; // A file that is not ours, or cut short by hand: as if never signed in.
    }
    this.cached = { ino: info.ino, mtimeMs: info.mtimeMs, size: info.size, record };
    return record;
  }

  async write(record: SignInRecord): Promise<void> {
    await writeFileAtomic(this.file, `${JSON.stringify(record, null, 2)}\n`, { private: true });
    this.cached = undefined;
  }

  /** Reads, changes and writes the record with every other mcphost process of this user kept out meanwhile. */
  async update<T>(change: (record: SignInRecord | undefined) => Promise<{ record?: SignInRecord; result: T }>): Promise<T> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const release = await lockLib().lock(this.file, {
      realpath: false,
      // A holder that died leaves the lock behind: taken over once it has not been refreshed for 15 s.
      stale: 15_000,
      update: 5_000,
      retries: { retries: 200, factor: 1.2, minTimeout: 20, maxTimeout: 250 },
      // Compromised (another process took it over as stale): the renewal still finishes; the next reader re-reads.
      onCompromised: () => undefined,
    });
    try {
      this.cached = undefined;
      const { record, result } = await change(this.read());
      if (record) await this.write(record);
      return result;
    } finally {
      await release().catch(() => undefined);
    }
  }

  remove(): boolean {
    try {
      statSync(this.file);
    } catch {
      return false;
    }
    rmSync(this.file, { force: true });
    this.cached = undefined;
    return true;
  }
}

/** When tokens issued now with this `expires_in` run out (epoch ms); undefined when the server did not say. */
export function expiryOf(tokens: StoredOAuthTokens, now = Date.now()): number | undefined {
  return typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? now + tokens.expires_in * 1000 : undefined;
}
