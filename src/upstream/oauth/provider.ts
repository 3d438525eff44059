// The SDK's OAuthClientProvider for one interactive sign-in (`mcphost auth <name>`): what the SDK's
// auth() reads and writes while it discovers the authorization server (RFC 9728, RFC 8414 / OpenID
// discovery), registers mcphost (a pre-registered client id, a Client ID Metadata Document URL, or
// dynamic registration, RFC 7591), sends the user to sign in (code flow with PKCE S256, the
// resource parameter of RFC 8707) and exchanges the code. The record it builds is written to the
// sign-in file only once tokens arrive.
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthSettings } from './settings.js';
import { expiryOf, type SignInRecord, type SignInStore } from './store.js';

export class SignInProvider implements OAuthClientProvider {
  readonly state: () => string;
  readonly expectedState = randomBytes(16).toString('base64url');
  /** Set by auth() when the user must go to the authorization server. */
  authorizationUrl?: URL;
  private verifier?: string;
  private discovery?: OAuthDiscoveryState;
  private resource?: string;
  private client?: StoredOAuthClientInformation;
  private tokensHeld?: StoredOAuthTokens;
  readonly clientMetadataUrl?: string;
  /** Absent for a pre-registered client: the SDK then never registers another one in its place. */
  readonly saveClientInformation?: (info: StoredOAuthClientInformation) => void;

  constructor(
    private readonly settings: OAuthSettings,
    private readonly store: SignInStore,
    readonly redirectUrl: string,
    private readonly previous: SignInRecord | undefined,
  ) {
    this.state = () => this.expectedState;
    if (settings.clientMetadataUrl) this.clientMetadataUrl = settings.clientMetadataUrl;
    if (!settings.clientId) {
      this.client = previous?.client;
      this.saveClientInformation = (info) => void (this.client = info);
    }
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'mcphost',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.settings.clientSecret ? 'client_secret_basic' : 'none',
      ...(this.settings.scopes && { scope: this.settings.scopes.join(' ') }),
    };
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const s = this.settings;
    if (!s.clientId) return this.client;
    // A pre-registered client belongs to the authorization server it was first used with: its secret goes to no other.
    const issuer = this.previous?.clientIssuer ?? ctx?.issuer;
    return { client_id: s.clientId, ...(s.clientSecret && { client_secret: s.clientSecret }), ...(issuer && { issuer }) };
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.tokensHeld;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    this.tokensHeld = tokens;
    const now = Date.now();
    const record: SignInRecord = {
      version: 1,
      server: this.settings.name,
      url: this.settings.url,
      ...(this.client && { client: this.client }),
      ...(this.settings.clientId && { clientIssuer: this.previous?.clientIssuer ?? tokens.issuer }),
      ...(this.discovery && { discovery: this.discovery }),
      ...(this.resource && { resource: this.resource }),
      tokens,
      expiresAt: expiryOf(tokens, now),
      signedInAt: new Date(now).toISOString(),
      refreshes: 0,
    };
    await this.store.update(async () => ({ record, result: undefined }));
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no sign-in was started');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  saveResourceUrl(resource: string): void {
    this.resource = resource;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if ((scope === 'all' || scope === 'client') && !this.settings.clientId) this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.tokensHeld = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}
