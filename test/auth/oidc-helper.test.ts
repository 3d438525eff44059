// The test authorization server and protected MCP server against the SDK's own OAuth client, with
// nothing of mcphost's in between: what every OAuth test here builds on.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { startAuthServer, type AuthServer } from '../helpers/oidc/authorization-server.js';
import { startProtectedMcpServer, type ProtectedMcpServer } from '../helpers/oidc/protected-mcp.js';
import { signInWithBrowser } from '../helpers/oidc/browser.js';

let as: AuthServer;
let rs: ProtectedMcpServer;
beforeAll(async () => {
  as = await startAuthServer();
  rs = await startProtectedMcpServer({ issuer: as.issuer });
});
afterAll(async () => {
  await rs?.close();
  await as?.close();
});

describe('test authorization server', () => {
  it('signs the SDK client in through the browser and serves its call; refuses it before', async () => {
    const callback = createServer();
    await new Promise<void>((r) => callback.listen(0, '127.0.0.1', r));
    const redirectUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    const code = new Promise<URLSearchParams>((resolve) =>
      callback.on('request', (req, res) => {
        const u = new URL(req.url ?? '/', redirectUrl);
        res.end('signed in');
        resolve(u.searchParams);
      }),
    );
    let authUrl: URL | undefined;
    const saved: Record<string, unknown> = {};
    const provider: OAuthClientProvider = {
      redirectUrl,
      clientMetadata: { client_name: 'sdk-test', redirect_uris: [redirectUrl] },
      clientInformation: () => saved.client as never,
      saveClientInformation: (c) => void (saved.client = c),
      tokens: () => saved.tokens as never,
      saveTokens: (t) => void (saved.tokens = t),
      redirectToAuthorization: (u) => void (authUrl = u),
      saveCodeVerifier: (v) => void (saved.verifier = v),
      codeVerifier: () => saved.verifier as string,
      saveDiscoveryState: (s) => void (saved.discovery = s),
      discoveryState: () => saved.discovery as never,
    };
    const transport = new StreamableHTTPClientTransport(new URL(rs.url), { authProvider: provider });
    await expect(new Client({ name: 't', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(authUrl?.searchParams.get('resource')).toBe(rs.url);
    const signedIn = await signInWithBrowser(authUrl!.href, { landsOn: redirectUrl });
    expect(signedIn.consentedScopes).toContain('mcp:tools');
    await transport.finishAuth(await code);
    callback.close();
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(rs.url), { authProvider: provider }));
    const r = await client.callTool({ name: 'whoami', arguments: {} });
    expect(r.content).toEqual([{ type: 'text', text: 'sub=alice scopes=mcp:tools' }]);
    expect((saved.tokens as { refresh_token?: string }).refresh_token).toBeTruthy();
    expect(as.grants.authorization_code).toBe(1);
    await client.close();
  });
});
