// The credentials `serve` and `call` send to a mounted server that wants OAuth: the SDK transport's
// AuthProvider (token() before every request, onUnauthorized() on a 401). It never opens a browser
// and never waits for a user: a server not signed in to, or whose sign-in can no longer be renewed,
// is refused at once with the command that fixes it (`mcphost auth <name>`).
//
// Renewal: an access token is renewed with the refresh token shortly before it expires (and after
// a 401 for a token thought valid), through the SDK's refreshAuthorization, under the sign-in file's
// lock: a process that finds the token already renewed by another uses the new one, so renewals by
// several processes at once make one request. A rotated refresh token is kept (the SDK keeps the old
// one when none is returned). A renewal the authorization server refuses (invalid_grant: expired,
// revoked, reused) is written down once, warned about once, and never tried again: from then on
// every request fails fast with the sign-in message until `mcphost auth` writes new tokens, which
// the next request reads.
import {
  extractWWWAuthenticateParams,
  OAuthError,
  OAuthErrorCode,
  refreshAuthorization,
  SdkErrorCode,
  SdkHttpError,
  type AuthProvider,
  type FetchLike,
} from '@modelcontextprotocol/client';
import type { Logger } from '../../backend/types.js';
import { SignInRequiredError } from './errors.js';
import type { OAuthSettings } from './settings.js';
import { expiryOf, type SignInRecord, type SignInStore } from './store.js';

/** Renewed this long before it expires, at most (a quarter of a short lifetime: a 40 s token at 30 s). */
const RENEW_AHEAD_MS = 60_000;

export interface OAuthSessionOptions {
  settings: OAuthSettings;
  store: SignInStore;
  logger: Logger;
  fetch?: FetchLike;
  now?: () => number;
}

export class OAuthSession implements AuthProvider {
  private readonly options: OAuthSessionOptions;
  /** The access token sent last: a 401 for it means it, not one renewed since, was refused. */
  private lastSent?: string;
  private renewing?: Promise<void>;

  constructor(options: OAuthSessionOptions) {
    this.options = options;
  }

  private get name(): string {
    return this.options.settings.name;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  async token(): Promise<string | undefined> {
    let record = this.options.store.read();
    if (!record?.tokens) {
      this.lastSent = undefined;
      return undefined; // Never signed in: the request goes out bare, and a server that wants a sign-in answers 401.
    }
    if (record.needsSignIn) throw new SignInRequiredError(this.name, record.needsSignIn);
    if (this.expiring(record)) {
      await this.renew(record.tokens.access_token, false);
      record = this.options.store.read();
      if (!record?.tokens) return undefined;
    }
    this.lastSent = record.tokens.access_token;
    return this.lastSent;
  }

  async onUnauthorized({ response }: Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0]): Promise<void> {
    const record = this.options.store.read();
    if (!record?.tokens) {
      // Only a challenge naming its Protected Resource Metadata (RFC 9728) asks for an OAuth sign-in; any
      // other 401 (a server wanting a static key) is reported as the HTTP answer it is.
      if (!extractWWWAuthenticateParams(response).resourceMetadataUrl) {
        const text = await response.text().catch(() => '');
        throw new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, {
          status: response.status,
          statusText: response.statusText,
          text,
        });
      }
      throw new SignInRequiredError(this.name, `${this.options.settings.url} asks for a signed-in user (it answered 401)`);
    }
    if (record.needsSignIn) throw new SignInRequiredError(this.name, record.needsSignIn);
    await this.renew(this.lastSent ?? record.tokens.access_token, true);
  }

  /** The server refused even a renewed token: no use renewing again, the user signs in anew. */
  refused(): string {
    const why = `${this.options.settings.url} refused the sign-in even after renewing it (HTTP 401)`;
    void this.markNeedsSignIn(why).catch((error: Error) => this.options.logger.debug(`oauth: ${error.message}`));
    return new SignInRequiredError(this.name, why).message;
  }

  /** Whether the sign-in is known to need the user (written by this process or another). */
  needsSignIn(): string | undefined {
    try {
      const record = this.options.store.read();
      return record?.needsSignIn ?? (record?.tokens ? undefined : 'not signed in');
    } catch (error) {
      return (error as Error).message;
    }
  }

  private expiring(record: SignInRecord): boolean {
    if (record.expiresAt === undefined) return false;
    const lifetime = typeof record.tokens?.expires_in === 'number' ? record.tokens.expires_in * 1000 : RENEW_AHEAD_MS * 4;
    return record.expiresAt - this.now() < Math.min(RENEW_AHEAD_MS, lifetime / 4);
  }

  /** One renewal at a time in this process; across processes the file's lock does the same. */
  private renew(seen: string, force: boolean): Promise<void> {
    this.renewing ??= this.renewLocked(seen, force).finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  private async renewLocked(seen: string, force: boolean): Promise<void> {
    const failure = await this.options.store.update<Error | undefined>(async (record) => {
      if (!record?.tokens) return { result: new SignInRequiredError(this.name, `${this.name} is not signed in`) };
      if (record.needsSignIn) return { result: new SignInRequiredError(this.name, record.needsSignIn) };
      // Renewed by another process (or another request here) since `seen` was sent: use that.
      if (record.tokens.access_token !== seen) return { result: undefined };
      if (!force && !this.expiring(record)) return { result: undefined };
      const refreshToken = record.tokens.refresh_token;
      const asUrl = record.discovery?.authorizationServerUrl;
      if (!refreshToken || !asUrl) {
        const why = `the sign-in to ${this.name} expired and its server gave no refresh token to renew it`;
        return { record: { ...record, needsSignIn: why }, result: new SignInRequiredError(this.name, why) };
      }
      const clientInformation = this.clientInformation(record);
      if (!clientInformation) {
        const why = `the client registration for ${this.name} is missing`;
        return { record: { ...record, needsSignIn: why }, result: new SignInRequiredError(this.name, why) };
      }
      try {
        const tokens = await refreshAuthorization(asUrl, {
          metadata: record.discovery?.authorizationServerMetadata,
          clientInformation,
          refreshToken,
          ...(record.resource && { resource: record.resource }),
          ...(this.options.fetch && { fetchFn: this.options.fetch }),
        });
        const now = this.now();
        const renewed: SignInRecord = {
          ...record,
          tokens: { ...tokens, issuer: record.tokens.issuer },
          expiresAt: expiryOf(tokens, now),
          refreshedAt: new Date(now).toISOString(),
          refreshes: (record.refreshes ?? 0) + 1,
        };
        this.options.logger.debug(
          `oauth: renewed the sign-in to ${this.name}${tokens.expires_in ? ` (valid ${tokens.expires_in} s)` : ''}${tokens.refresh_token !== refreshToken ? ', refresh token rotated' : ''}`,
        );
        return { record: renewed, result: undefined };
      } catch (error) {
        // The authorization server answered and said no (invalid_grant: expired, revoked, reused): the user signs in again.
        if (error instanceof OAuthError && error.code !== OAuthErrorCode.ServerError) {
          const why = `the authorization server refused to renew the sign-in to ${this.name} (${error.code})`;
          this.options.logger.warn(`${why}: run \`mcphost auth ${this.name}\` to sign in again`);
          return { record: { ...record, needsSignIn: why }, result: new SignInRequiredError(this.name, why) };
        }
        // Unreachable, or a 5xx: tried again on the next request. The SDK's text of a bad answer quotes its body; not passed on.
        const code = (error as { cause?: { code?: string } }).cause?.code ?? (error instanceof OAuthError ? error.code : 'no answer');
        return { result: new Error(`could not renew the sign-in to ${this.name}: the authorization server at ${asUrl} failed (${code})`) };
      }
    });
    if (failure) throw failure;
  }

  private clientInformation(record: SignInRecord) {
    const s = this.options.settings;
    if (s.clientId) return { client_id: s.clientId, ...(s.clientSecret && { client_secret: s.clientSecret }) };
    return record.client;
  }

  private async markNeedsSignIn(why: string): Promise<void> {
    await this.options.store.update(async (record) => ({
      record: record?.tokens && !record.needsSignIn ? { ...record, needsSignIn: why } : undefined,
      result: undefined,
    }));
  }
}
