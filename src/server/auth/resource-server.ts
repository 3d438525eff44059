// mcphost as an OAuth 2.1 resource server (the server side of the MCP authorization spec), set up
// by `http.auth`: clients sign in against an OpenID Connect provider and send its access token (a
// JWT) with every request. A token is accepted when jose verifies its signature with the issuer's
// keys (JWKS, from `jwksUri` or the issuer's metadata), its issuer, its audience (mcphost's own
// resource URI) and its time; the SDK's verifyBearerToken then checks the resource, the required
// scopes and the expiry once more and, on a refusal, the SDK's bearerAuthChallengeResponse answers
// 401 with `WWW-Authenticate: Bearer … resource_metadata=…`. The Protected Resource Metadata
// (RFC 9728) it names is served here too. The token itself goes no further than this module.
import { discoverAuthorizationServerMetadata, OAuthError as ClientOAuthError } from '@modelcontextprotocol/client';
import {
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Logger } from '../../backend/types.js';
import type { HttpAuthConfig } from '../../config/schema.js';
import type { OAuthIdentity } from '../../registry/identity.js';

export interface Challenge {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ResourceServer {
  /** The resource URI tokens must be issued for (the audience). */
  readonly resource: string;
  /** Where the Protected Resource Metadata is served, and named in every 401. */
  readonly resourceMetadataUrl: string;
  /** The metadata document when `pathname` is one of its paths, else undefined. */
  metadataFor(pathname: string): OAuthProtectedResourceMetadata | undefined;
  /** The caller a request's Authorization header proves, or the challenge to answer with. */
  verify(authorization: string | undefined): Promise<{ identity: OAuthIdentity } | { challenge: Challenge }>;
}

export function createResourceServer(settings: HttpAuthConfig, servedUrl: string, logger: Logger): ResourceServer {
  const resource = settings.audience ?? servedUrl;
  const resourceUrl = new URL(resource);
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(resourceUrl);
  const metadataPath = new URL(resourceMetadataUrl).pathname;
  // Only `issuer` is read from it (the SDK builds the document and refuses a plain-http issuer off loopback).
  const metadata = buildOAuthProtectedResourceMetadata({
    oauthMetadata: { issuer: settings.issuer } as OAuthMetadata,
    resourceServerUrl: resourceUrl,
    ...(settings.scopes.length > 0 && { scopesSupported: settings.scopes }),
    ...(settings.resourceName && { resourceName: settings.resourceName }),
  });
  const requiredScopes = settings.scopes;

  let keys: Promise<JWTVerifyGetKey> | undefined;
  const jwks = (): Promise<JWTVerifyGetKey> => {
    // Found once (and again after a failure): the issuer's metadata names its keys, which jose caches and refetches for a new key id.
    keys ??= (async () => {
      const uri = settings.jwksUri ?? (await discoverAuthorizationServerMetadata(settings.issuer).catch(() => undefined))?.jwks_uri;
      if (!uri) throw new Error(`no signing keys found for ${settings.issuer}: its metadata names no jwks_uri (set http.auth.jwksUri)`);
      return createRemoteJWKSet(new URL(uri), { timeoutDuration: 10_000, cooldownDuration: 30_000 });
    })();
    keys.catch(() => (keys = undefined));
    return keys;
  };

  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const getKey = await jwks();
      try {
        const { payload } = await jwtVerify(token, getKey, { issuer: settings.issuer, audience: resource });
        if (typeof payload.sub !== 'string' || payload.sub === '')
          throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token names no subject');
        const scopes = scopesOf(payload.scope ?? payload.scp);
        const clientId = typeof payload.client_id === 'string' ? payload.client_id : typeof payload.azp === 'string' ? payload.azp : '';
        return { token, clientId, scopes, expiresAt: payload.exp, resource: resourceUrl, extra: { sub: payload.sub, iss: payload.iss } };
      } catch (error) {
        if (error instanceof OAuthError) throw error;
        // A bad token (signature, audience, expiry, shape) is the client's problem; say which without echoing it.
        if (error instanceof joseErrors.JOSEError && !(error instanceof joseErrors.JWKSTimeout))
          throw new OAuthError(OAuthErrorCode.InvalidToken, tokenProblem(error));
        throw error;
      }
    },
  };

  return {
    resource,
    resourceMetadataUrl,
    metadataFor: (pathname) => (pathname === metadataPath || pathname === '/.well-known/oauth-protected-resource' ? metadata : undefined),
    async verify(authorization) {
      const options = { verifier, requiredScopes, resourceMetadataUrl, expectedResource: resourceUrl };
      try {
        const info = await verifyBearerToken(authorization, options);
        const extra = info.extra as { sub: string; iss: string };
        return {
          identity: {
            kind: 'oauth',
            subject: extra.sub,
            scopes: info.scopes,
            clientId: info.clientId,
            issuer: extra.iss,
            expiresAt: info.expiresAt!,
          },
        };
      } catch (error) {
        if (!(error instanceof OAuthError) && !(error instanceof ClientOAuthError))
          logger.warn(`http.auth: cannot check tokens: ${(error as Error).message}`);
        const response = bearerAuthChallengeResponse(error, { requiredScopes, resourceMetadataUrl });
        return { challenge: { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() } };
      }
    },
  };
}

/** `scope` (RFC 9068: a space-separated string), or `scp` as Entra ID and Okta write it (a string or a list). */
function scopesOf(claim: unknown): string[] {
  if (typeof claim === 'string') return claim.split(' ').filter(Boolean);
  return Array.isArray(claim) ? claim.filter((s): s is string => typeof s === 'string') : [];
}

function tokenProblem(error: InstanceType<typeof joseErrors.JOSEError>): string {
  if (error instanceof joseErrors.JWTExpired) return 'Token has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return `Token ${error.claim === 'aud' ? 'was not issued for this resource' : `claim ${error.claim} is not accepted`}`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey)
    return 'Token signature does not verify';
  return 'Token is not a valid JWT';
}
