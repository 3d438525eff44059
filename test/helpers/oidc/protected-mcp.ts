// A remote MCP server that wants OAuth, as hosted servers (Linear, Sentry, Notion, GitHub's remote
// server) do: Streamable HTTP at /mcp behind the SDK server's bearer-auth gate (requireBearerAuth,
// 401 with `WWW-Authenticate: Bearer resource_metadata=…`), its Protected Resource Metadata (RFC
// 9728) from the SDK's oauthMetadataResponse, and access tokens checked with jose against the
// authorization server's keys, audience = this server's URL. Its `whoami` tool answers who the
// token belongs to. It records every bearer token it was sent, for the tests' log grep.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import {
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  McpServer,
  oauthMetadataResponse,
  OAuthError,
  OAuthErrorCode,
  requireBearerAuth,
  type AuthInfo,
  type OAuthMetadata,
} from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as z from 'zod';

export interface ProtectedMcpServer {
  url: string;
  /** Every bearer token sent to /mcp (valid or not). */
  seenTokens: Set<string>;
  /** Requests answered 401. */
  refused: number;
  /** Requests served with a valid token. */
  served: number;
  close(): Promise<void>;
}

export async function startProtectedMcpServer(options: { issuer: string; scopes?: string[] }): Promise<ProtectedMcpServer> {
  const scopes = options.scopes ?? ['mcp:tools'];
  const oauthMetadata = (await (await fetch(`${options.issuer}/.well-known/openid-configuration`)).json()) as OAuthMetadata & {
    jwks_uri: string;
  };
  const jwks = createRemoteJWKSet(new URL(oauthMetadata.jwks_uri));
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  const state: ProtectedMcpServer = { url: url.href, seenTokens: new Set(), refused: 0, served: 0, close: async () => undefined };

  const gate = requireBearerAuth({
    verifier: {
      async verifyAccessToken(token) {
        try {
          const { payload } = await jwtVerify(token, jwks, { issuer: oauthMetadata.issuer, audience: url.href });
          return {
            token,
            clientId: String(payload.client_id ?? ''),
            scopes: String(payload.scope ?? '')
              .split(' ')
              .filter(Boolean),
            expiresAt: payload.exp,
            resource: url,
            extra: { sub: payload.sub },
          };
        } catch (error) {
          throw new OAuthError(OAuthErrorCode.InvalidToken, (error as Error).message);
        }
      },
    },
    requiredScopes: scopes,
    expectedResource: url,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(url),
  });

  const handler = createMcpHandler(({ authInfo }) => {
    const server = new McpServer({ name: 'protected-fixture', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Who the access token belongs to', inputSchema: z.object({}) }, async () => ({
      content: [{ type: 'text', text: `sub=${String(authInfo?.extra?.sub)} scopes=${authInfo?.scopes.join(' ')}` }],
    }));
    server.registerTool(
      'echo',
      { description: 'Echoes a message', inputSchema: z.object({ message: z.string() }) },
      async ({ message }) => ({
        content: [{ type: 'text', text: message }],
      }),
    );
    return server;
  });
  const mcp = toNodeHandler(handler);

  const webRequest = (req: IncomingMessage) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    return new Request(new URL(req.url ?? '/', url), { method: req.method, headers });
  };

  http.on('request', (req, res) => {
    void (async () => {
      const request = webRequest(req);
      const metadata = oauthMetadataResponse(request, { oauthMetadata, resourceServerUrl: url, scopesSupported: scopes });
      let answer: Response | undefined = metadata;
      if (!answer && request.url === url.href) {
        const bearer = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
        if (bearer) state.seenTokens.add(bearer);
        const auth = await gate(request);
        if (auth instanceof Response) {
          state.refused++;
          answer = auth;
        } else {
          state.served++;
          (req as IncomingMessage & { auth?: AuthInfo }).auth = auth;
          return mcp(req, res);
        }
      }
      answer ??= new Response('not found', { status: 404 });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (answer.body) Readable.fromWeb(answer.body as never).pipe(res);
      else res.end();
    })().catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(error.message);
    });
  });

  state.close = () =>
    new Promise<void>((resolve) => {
      void handler.close();
      http.close(() => resolve());
      http.closeAllConnections();
    });
  return state;
}
