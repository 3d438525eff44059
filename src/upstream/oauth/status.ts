// What `mcphost auth --list` and `--logout` tell and do, from the sign-in files alone: who is
// signed in where, until when, with what scopes, and whether it renews itself. Never a token.
// Signing out deletes the file and asks the authorization server to revoke the refresh token
// (RFC 7009, through oauth4webapi: the SDK has no revocation), so the sign-in ends there too.
import * as oauth from 'oauth4webapi';
import type { OAuthSettings } from './settings.js';
import type { SignInRecord, SignInStore } from './store.js';

type SignInState = 'signed-in' | 'renewable' | 'needs-sign-in' | 'not-signed-in';

export interface SignInStatus {
  server: string;
  url: string;
  state: SignInState;
  message: string;
  issuer?: string;
  scopes?: string;
  /** When the access token expires (ISO time). */
  expiresAt?: string;
  refreshable?: boolean;
  refreshes?: number;
  signedInAt?: string;
  refreshedAt?: string;
  client?: 'pre-registered' | 'registered dynamically' | 'metadata document';
}

function clientKind(settings: OAuthSettings, record: SignInRecord): SignInStatus['client'] {
  if (settings.clientId) return 'pre-registered';
  if (record.client?.client_id === settings.clientMetadataUrl) return 'metadata document';
  return 'registered dynamically';
}

export function signInStatus(settings: OAuthSettings, store: SignInStore, now = Date.now()): SignInStatus {
  const base = { server: settings.name, url: settings.url };
  let record: SignInRecord | undefined;
  try {
    record = store.read();
  } catch (error) {
    return { ...base, state: 'needs-sign-in', message: (error as Error).message };
  }
  if (!record?.tokens) return { ...base, state: 'not-signed-in', message: `not signed in: run \`mcphost auth ${settings.name}\`` };
  const tokens = record.tokens;
  const details = {
    ...(tokens.issuer && { issuer: tokens.issuer }),
    ...(tokens.scope && { scopes: tokens.scope }),
    ...(record.expiresAt !== undefined && { expiresAt: new Date(record.expiresAt).toISOString() }),
    refreshable: tokens.refresh_token !== undefined,
    refreshes: record.refreshes ?? 0,
    ...(record.signedInAt && { signedInAt: record.signedInAt }),
    ...(record.refreshedAt && { refreshedAt: record.refreshedAt }),
    client: clientKind(settings, record),
  };
  if (record.needsSignIn)
    return { ...base, ...details, state: 'needs-sign-in', message: `${record.needsSignIn}: run \`mcphost auth ${settings.name}\`` };
  const left = record.expiresAt === undefined ? undefined : Math.round((record.expiresAt - now) / 1000);
  if (left !== undefined && left <= 0) {
    return details.refreshable
      ? { ...base, ...details, state: 'renewable', message: `access token expired ${-left} s ago; renewed on the next request` }
      : {
          ...base,
          ...details,
          state: 'needs-sign-in',
          message: `expired ${-left} s ago and cannot be renewed: run \`mcphost auth ${settings.name}\``,
        };
  }
  const until = left === undefined ? 'no expiry given' : `expires in ${left} s`;
  return { ...base, ...details, state: 'signed-in', message: `signed in (${until}${details.refreshable ? ', renews itself' : ''})` };
}

export interface SignOutResult {
  removed: boolean;
  /** Whether the authorization server was asked to revoke the refresh token, and how that went. */
  revoked: 'yes' | 'not-offered' | 'failed' | 'nothing-to-revoke';
  message: string;
}

export async function signOut(settings: OAuthSettings, store: SignInStore): Promise<SignOutResult> {
  let record: SignInRecord | undefined;
  try {
    record = store.read();
  } catch {
    record = undefined;
  }
  let revoked: SignOutResult['revoked'] = 'nothing-to-revoke';
  const token = record?.tokens?.refresh_token ?? record?.tokens?.access_token;
  // OpenID discovery metadata (the SDK's type for it) names no revocation endpoint; RFC 8414's does.
  const metadata = record?.discovery?.authorizationServerMetadata as { issuer: string; revocation_endpoint?: string } | undefined;
  const clientId = settings.clientId ?? record?.client?.client_id;
  if (token && clientId && metadata) {
    if (!metadata.revocation_endpoint) revoked = 'not-offered';
    else {
      try {
        const endpoint = new URL(metadata.revocation_endpoint);
        const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(endpoint.hostname);
        const secret = settings.clientSecret ?? record?.client?.client_secret;
        const response = await oauth.revocationRequest(
          { issuer: metadata.issuer, revocation_endpoint: metadata.revocation_endpoint },
          { client_id: clientId },
          secret ? oauth.ClientSecretBasic(secret) : oauth.None(),
          token,
          { ...(loopback && { [oauth.allowInsecureRequests]: true }), signal: AbortSignal.timeout(10_000) },
        );
        await oauth.processRevocationResponse(response);
        revoked = 'yes';
      } catch {
        revoked = 'failed';
      }
    }
  }
  const removed = store.remove();
  const ended =
    revoked === 'yes'
      ? ' and revoked at the authorization server'
      : revoked === 'failed'
        ? "; the authorization server did not confirm the revocation (revoke mcphost's access in your account there if it matters)"
        : revoked === 'not-offered'
          ? "; the authorization server offers no revocation (revoke mcphost's access in your account there if it matters)"
          : '';
  return {
    removed,
    revoked,
    message: removed ? `signed out of ${settings.name}: tokens deleted${ended}` : `${settings.name} was not signed in`,
  };
}
