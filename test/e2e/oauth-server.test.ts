// `mcphost serve --transport http` behind an OpenID Connect provider, by configuration alone
// (`http.auth`): the SDK's own client signs in through the test authorization server (Chromium on
// its sign-in and consent pages) and is served in both protocol eras; a token for another
// audience, an expired one, a forged one and none at all get 401 with the challenge naming the
// Protected Resource Metadata; a 2025-era session is its signed-in opener's; the static token
// keeps working beside it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { startHttp, type HttpServer } from '../helpers/mcp.js';
import { KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { startAuthServer, type AuthServer } from '../helpers/oidc/authorization-server.js';
import { signInWithBrowser } from '../helpers/oidc/browser.js';

const STATIC = 'static-token-for-scripts-9f8e7d';
const t = tempDir('mcphost-rs-');
let as: AuthServer;
let server: HttpServer;
let prmUrl: string;

beforeAll(async () => {
  as = await startAuthServer({ accessTokenTtl: 120 });
  const config = t.write(
    '.mcprc.yaml',
    [
      'plugins:',
      '  kitchen:',
      `    module: ${KITCHEN}`,
      'http:',
      `  token: ${STATIC}`,
      '  auth:',
      `    issuer: ${as.issuer}`,
      '    scopes: [mcp:tools]',
      '    resourceName: mcphost under test',
      '',
    ].join('\n'),
  );
  server = await startHttp([], { cwd: t.dir, env: isolatedEnv(t.dir, { MCPHOST_CONFIG: config }) });
});
afterAll(async () => {
  await server?.stop();
  await as?.close();
});

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '0' } },
};
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

/** An in-memory OAuth client of the SDK, as an MCP client such as the Inspector keeps one. */
function sdkProvider(redirectUrl: string) {
  const saved: Record<string, unknown> = {};
  const provider: OAuthClientProvider & { link?: URL } = {
    redirectUrl,
    clientMetadata: { client_name: 'an MCP client', redirect_uris: [redirectUrl] },
    clientInformation: () => saved.client as never,
    saveClientInformation: (c) => void (saved.client = c),
    tokens: () => saved.tokens as never,
    saveTokens: (tokens) => void (saved.tokens = tokens),
    redirectToAuthorization: (u) => void (provider.link = u),
    saveCodeVerifier: (v) => void (saved.verifier = v),
    codeVerifier: () => saved.verifier as string,
    saveDiscoveryState: (s) => void (saved.discovery = s),
    discoveryState: () => saved.discovery as never,
  };
  return { provider, saved };
}

// Each step runs several processes (and Chromium): on 2 shared cores under the full suite it takes longer than the default 30 s.
describe('signing clients in to mcphost (http.auth)', { timeout: 120_000 }, () => {
  it('answers 401 with a challenge naming its Protected Resource Metadata, which names the issuer', async () => {
    const r = await post(initialize);
    expect(r.status).toBe(401);
    const challenge = r.headers.get('www-authenticate') ?? '';
    prmUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? '';
    expect(prmUrl).toBe(server.url.replace('/mcp', '/.well-known/oauth-protected-resource/mcp'));
    expect(challenge).toContain('scope="mcp:tools"');
    const prm = await (await fetch(prmUrl)).json();
    expect(prm).toEqual({
      resource: server.url,
      authorization_servers: [as.issuer],
      scopes_supported: ['mcp:tools'],
      resource_name: 'mcphost under test',
    });
    expect(await (await fetch(server.url.replace('/mcp', '/.well-known/oauth-protected-resource'))).json()).toEqual(prm);
  });

  let tokens: { access_token: string };
  it('an SDK client signs in through the same authorization server and is served, in both eras', async () => {
    const callback = createServer();
    await new Promise<void>((r) => callback.listen(0, '127.0.0.1', r));
    const redirectUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    const params = new Promise<URLSearchParams>((resolve) =>
      callback.on('request', (req, res) => {
        res.end('ok');
        resolve(new URL(req.url ?? '/', redirectUrl).searchParams);
      }),
    );
    const { provider, saved } = sdkProvider(redirectUrl);
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    await expect(new Client({ name: 'c', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.link?.searchParams.get('resource')).toBe(server.url);
    await signInWithBrowser(provider.link!.href, { landsOn: redirectUrl });
    await transport.finishAuth(await params);
    callback.close();
    tokens = saved.tokens as { access_token: string };
    for (const era of ['legacy', 'modern'] as const) {
      const client = new Client(
        { name: 'c', version: '1' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }));
      const r = await client.callTool({ name: 'kitchen_add', arguments: { a: 2, b: 3 } });
      expect(r.structuredContent, era).toEqual({ sum: 5 });
      await client.close();
    }
    const health = await (
      await fetch(server.url.replace('/mcp', '/health'), { headers: { authorization: `Bearer ${tokens.access_token}` } })
    ).json();
    expect(JSON.stringify(health)).toContain('kitchen');
    expect(await (await fetch(server.url.replace('/mcp', '/health'))).json()).toEqual({ live: true });
  });

  it('refuses a token for another audience, an expired one, a forged one, and none, each with 401 and the challenge', async () => {
    const otherAudience = await as.serviceToken('http://127.0.0.1:1/mcp');
    as.setAccessTokenTtl(1);
    const expired = await as.serviceToken(server.url);
    as.setAccessTokenTtl(120);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ scope: 'mcp:tools', client_id: 'forger' })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key-1', typ: 'at+jwt' })
      .setIssuer(as.issuer)
      .setAudience(server.url)
      .setSubject('alice')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    await new Promise((r) => setTimeout(r, 2_100));
    const cases: Array<[string, Record<string, string>, string]> = [
      ['another audience', { authorization: `Bearer ${otherAudience}` }, 'not issued for this resource'],
      ['expired', { authorization: `Bearer ${expired}` }, 'expired'],
      ['forged', { authorization: `Bearer ${forged}` }, 'signature'],
      ['none', {}, 'Missing Authorization header'],
      ['garbage', { authorization: 'Bearer not-a-jwt' }, 'not a valid JWT'],
    ];
    for (const [what, headers, says] of cases) {
      const r = await post(initialize, headers);
      expect(r.status, what).toBe(401);
      const challenge = r.headers.get('www-authenticate') ?? '';
      expect(challenge, what).toContain(`resource_metadata="${prmUrl}"`);
      expect(challenge, what).toContain(says);
      expect(await r.text(), what).not.toContain('kitchen');
    }
    // A token of the right audience from the same issuer is served (the service's client-credentials token).
    const good = await as.serviceToken(server.url);
    expect((await post(initialize, { authorization: `Bearer ${good}` })).status).toBe(200);
  });

  it("a 2025-era session belongs to the caller that opened it: another caller's request on it is 'not found'", async () => {
    const alice = tokens.access_token;
    const opened = await post(initialize, { authorization: `Bearer ${alice}` });
    const sid = opened.headers.get('mcp-session-id')!;
    expect(sid).toBeTruthy();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, authorization: `Bearer ${alice}` });
    expect((await post(list, { ...headers, authorization: `Bearer ${alice}` })).status).toBe(200);
    const service = await as.serviceToken(server.url);
    const other = await post(list, { ...headers, authorization: `Bearer ${service}` });
    expect(other.status).toBe(404);
    expect(await other.text()).toContain('Session not found');
    expect((await post(list, { ...headers, authorization: `Bearer ${STATIC}` })).status).toBe(404);
  });

  it('the static token keeps working beside http.auth', async () => {
    const client = await server.connect('legacy', { authorization: `Bearer ${STATIC}` });
    expect((await client.callTool({ name: 'kitchen_add', arguments: { a: 1, b: 1 } })).structuredContent).toEqual({ sum: 2 });
    expect((await post(initialize, { authorization: `Bearer ${STATIC}x` })).status).toBe(401);
  });

  it('logs no token', () => {
    for (const token of [tokens.access_token, STATIC]) expect(server.stderr()).not.toContain(token);
  });
});
