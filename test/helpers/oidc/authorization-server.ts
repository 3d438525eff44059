// A real OpenID Connect / OAuth 2.1 authorization server on 127.0.0.1 for tests: oidc-provider (the
// certified OpenID Connect server for Node) with dynamic client registration (RFC 7591), resource
// indicators (RFC 8707) issuing JWT access tokens whose audience is the resource, PKCE, refresh
// tokens rotated for public clients, revocation, and the sign-in and consent pages of
// interactions.ts. What a test checks: how many tokens of each grant it issued, every token and
// secret it issued (to grep logs for), and a user's grants taken back.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { TestStore } from './adapter.js';
import { handleInteraction, type TestUser } from './interactions.js';

export interface PreRegisteredClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'none' | 'client_secret_basic' | 'client_secret_post';
  grant_types?: string[];
  application_type?: 'native' | 'web';
  client_name?: string;
}

export interface AuthServerOptions {
  users?: TestUser[];
  /** Scopes a resource server accepts (every resource gets these). */
  resourceScopes?: string[];
  /** Clients registered in advance (for servers without dynamic registration). */
  clients?: PreRegisteredClient[];
  /** Access-token lifetime in seconds (changeable later with `setAccessTokenTtl`). */
  accessTokenTtl?: number;
  /** Dynamic client registration (default on). */
  registration?: boolean;
}

export interface AuthServer {
  issuer: string;
  provider: Provider;
  users: TestUser[];
  /** Successful token requests per grant type (authorization_code, refresh_token, client_credentials). */
  grants: Record<string, number>;
  /** Failed token requests per grant type. */
  grantErrors: Record<string, number>;
  setAccessTokenTtl(seconds: number): void;
  /** Every token, code and client secret this server issued (refresh tokens, codes, registrations; access tokens via `seen`). */
  issuedSecrets(): string[];
  /** Takes back every grant (the user revokes the app's access): its refresh tokens stop working. */
  revokeAllGrants(): Promise<number>;
  /** A JWT access token for `resource` from the client-credentials grant of the built-in `test-service` client. */
  serviceToken(resource: string, scope?: string): Promise<string>;
  close(): Promise<void>;
}

export const DEFAULT_USER: TestUser = { login: 'alice', password: 'correct horse battery staple' };
const SERVICE_CLIENT = { client_id: 'test-service', client_secret: 'test-service-secret-4b1d' };

export async function startAuthServer(options: AuthServerOptions = {}): Promise<AuthServer> {
  const users = options.users ?? [DEFAULT_USER];
  const scopes = options.resourceScopes ?? ['mcp:tools'];
  let accessTokenTtl = options.accessTokenTtl ?? 3600;
  const store = new TestStore();
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' };

  const configuration: Configuration = {
    adapter: (name: string) => store.adapter(name),
    clients: [
      {
        ...SERVICE_CLIENT,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      ...(options.clients ?? []).map((c) => ({
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code' as const],
        application_type: 'native' as const,
        token_endpoint_auth_method: c.client_secret ? ('client_secret_basic' as const) : ('none' as const),
        ...c,
      })),
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key-one', 'test-cookie-key-two'] },
    scopes: ['openid', 'offline_access', ...scopes],
    claims: { openid: ['sub'] },
    findAccount: (_ctx, id) => (users.some((u) => u.login === id) ? { accountId: id, claims: () => ({ sub: id }) } : undefined),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: options.registration ?? true },
      revocation: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? undefined!,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: scopes.join(' '),
          audience: resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: accessTokenTtl,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    // A refresh token whenever the client may use one (offline_access is an OpenID scope, and an MCP
    // client's plain OAuth request need not carry openid).
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: () => accessTokenTtl,
      RefreshToken: () => 24 * 3600,
      Grant: () => 24 * 3600,
      Session: () => 3600,
      Interaction: () => 600,
      AuthorizationCode: () => 60,
      ClientCredentials: () => accessTokenTtl,
    },
    pkce: { required: () => true },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html><body><h1>Error</h1><pre id="error">${String(out.error)}: ${String(out.error_description ?? '')}</pre></body></html>`;
    },
  };
  const provider = new Provider(issuer, configuration);
  const grants: Record<string, number> = {};
  const grantErrors: Record<string, number> = {};
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const type = String(ctx.oidc.params?.grant_type);
    grants[type] = (grants[type] ?? 0) + 1;
  });
  provider.on('grant.error', (ctx: KoaContextWithOIDC) => {
    const type = String(ctx.oidc.params?.grant_type);
    grantErrors[type] = (grantErrors[type] ?? 0) + 1;
  });
  // Thrown errors of the provider are answered to the client already; keep the test output clean.
  provider.on('server_error', () => undefined);
  const callback = provider.callback();
  http.on('request', (req, res) => {
    handleInteraction(provider, users, req, res)
      .then((handled) => {
        if (!handled) callback(req, res);
      })
      .catch((error: Error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`interaction failed: ${error.message}`);
      });
  });

  return {
    issuer,
    provider,
    users,
    grants,
    grantErrors,
    setAccessTokenTtl(seconds) {
      accessTokenTtl = seconds;
    },
    issuedSecrets() {
      const out = new Set<string>([SERVICE_CLIENT.client_secret]);
      for (const model of ['RefreshToken', 'AuthorizationCode', 'RegistrationAccessToken', 'Client', 'AccessToken', 'ClientCredentials'])
        for (const id of store.issued.get(model) ?? []) out.add(id);
      for (const c of options.clients ?? []) if (c.client_secret) out.add(c.client_secret);
      return [...out];
    },
    async revokeAllGrants() {
      const ids = store.grantIds();
      for (const id of ids) {
        const grant = await provider.Grant.find(id);
        await grant?.destroy();
        await provider.RefreshToken.revokeByGrantId(id);
        await provider.AccessToken.revokeByGrantId(id);
      }
      return ids.length;
    },
    async serviceToken(resource, scope = scopes.join(' ')) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${SERVICE_CLIENT.client_id}:${SERVICE_CLIENT.client_secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!body.access_token) throw new Error(`client_credentials failed: ${body.error}: ${body.error_description}`);
      return body.access_token;
    },
    async close() {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
