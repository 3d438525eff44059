// How a request's identity reaches the handlers: the SDK's node adapter hands `req.auth` on as
// `authInfo` (the 2026 era's per-request factory, and `ctx.http.authInfo` in both eras). Only the
// identity rides along, never the token.
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { ANONYMOUS, type Identity } from '../../registry/identity.js';

export type WithIdentity = IncomingMessage & { auth?: AuthInfo };

export const identityInfo = (identity: Identity): AuthInfo => ({
  token: '',
  clientId: identity.kind === 'oauth' ? identity.clientId : '',
  scopes: identity.kind === 'oauth' ? identity.scopes : [],
  extra: { identity },
});

export const identityOf = (authInfo: AuthInfo | undefined): Identity => (authInfo?.extra?.identity as Identity | undefined) ?? ANONYMOUS;
