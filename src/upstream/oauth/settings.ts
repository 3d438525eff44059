// Which mounted servers mcphost signs in to, and how: one normalised object per `servers.<name>`
// entry. OAuth is on for an HTTP server unless the entry says `oauth: false` or sends its own
// Authorization header (a static token: mcphost then never signs in for it).
import type { UpstreamServerConfig } from '../../config/schema.js';

export interface OAuthSettings {
  /** The server's name in .mcprc (what `mcphost auth <name>` takes). */
  name: string;
  url: string;
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  scopes?: string[];
  redirectPort: number;
}

export function oauthSettings(name: string, server: UpstreamServerConfig): OAuthSettings | undefined {
  if (!('url' in server) || server.oauth === false) return undefined;
  const ownAuthorization = Object.keys(server.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');
  if (ownAuthorization && server.oauth === undefined) return undefined;
  const o = server.oauth ?? {};
  return {
    name,
    url: server.url,
    ...(o.clientId !== undefined && { clientId: o.clientId }),
    ...(o.clientSecret !== undefined && { clientSecret: o.clientSecret }),
    ...(o.clientMetadataUrl !== undefined && { clientMetadataUrl: o.clientMetadataUrl }),
    ...(o.scopes !== undefined && { scopes: o.scopes }),
    redirectPort: o.redirectPort ?? 0,
  };
}
