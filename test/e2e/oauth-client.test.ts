// mcphost signing in to a mounted server that wants OAuth, end to end against real parts: the test
// authorization server (oidc-provider) and an MCP server behind the SDK's bearer-auth gate, both on
// 127.0.0.1; `mcphost auth` as a real process, its browser step done by headless Chromium; then
// `call`, `servers`, `serve` as real processes. Every line any of them prints is kept and grepped
// for every token the authorization server issued and every bearer token the server was sent.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, type CliResult } from '../helpers/cli.js';
import { startHttp } from '../helpers/mcp.js';
import { BIN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { startAuthServer, type AuthServer } from '../helpers/oidc/authorization-server.js';
import { signInWithBrowser } from '../helpers/oidc/browser.js';
import { startProtectedMcpServer, type ProtectedMcpServer } from '../helpers/oidc/protected-mcp.js';
import type { SignInRecord } from '../../src/upstream/oauth/store.js';

const t = tempDir('mcphost-oauth-');
const logs: string[] = [];
const tokensSeen = new Set<string>();
let as: AuthServer;
let rs: ProtectedMcpServer;
let env: Record<string, string | undefined>;

const PRE_SECRET = 'pre-registered-secret-7f3a9c';

beforeAll(async () => {
  as = await startAuthServer({
    accessTokenTtl: 5,
    clients: [
      {
        client_id: 'mcphost-preregistered',
        client_secret: PRE_SECRET,
        redirect_uris: ['http://127.0.0.1/callback'],
        client_name: 'mcphost (pre-registered)',
      },
    ],
  });
  rs = await startProtectedMcpServer({ issuer: as.issuer });
  const config = t.write(
    '.mcprc.yaml',
    [
      'servers:',
      '  tracker:',
      `    url: ${rs.url}`,
      '  team:',
      `    url: ${rs.url}`,
      '    oauth:',
      '      clientId: mcphost-preregistered',
      '      clientSecret: ${TEAM_CLIENT_SECRET}',
      '      scopes: [mcp:tools]',
      '',
    ].join('\n'),
  );
  env = isolatedEnv(t.dir, { MCPHOST_CONFIG: config, TEAM_CLIENT_SECRET: PRE_SECRET, MCPHOST_NO_BROWSER: '1' });
});
afterAll(async () => {
  await rs?.close();
  await as?.close();
});

async function cli(args: string[]): Promise<CliResult> {
  const r = await runCli(args, { cwd: t.dir, env, timeout: 30_000 });
  logs.push(r.stdout, r.stderr);
  return r;
}

const fileOf = (server: string) => {
  const dir = path.join(t.dir, '.config/mcphost/oauth');
  return path.join(
    dir,
    readdirSync(dir).find((f) => f.startsWith(`${server}-`) && f.endsWith('.json'))!,
  );
};
const recordOf = (server: string): SignInRecord => {
  const record = JSON.parse(readFileSync(fileOf(server), 'utf8')) as SignInRecord;
  for (const v of [record.tokens?.access_token, record.tokens?.refresh_token]) if (v) tokensSeen.add(v);
  return record;
};

/** `mcphost auth <server>` as a process: the link it prints is opened by Chromium, which signs in and consents. */
async function signInThroughBrowser(server: string): Promise<CliResult & { consented: string }> {
  const child = execa(process.execPath, [BIN, 'auth', server], { cwd: t.dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  let stderr = '';
  const link = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /Open this link to sign in to \S+:\n\n {2}(\S+)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    void child.then((r) => reject(new Error(`mcphost auth exited (${r.exitCode}) before printing a link:\n${r.stderr}`)));
  });
  const signedIn = await signInWithBrowser(link, { landsOn: 'http://127.0.0.1:' });
  const r = await child;
  const result = { stdout: String(r.stdout), stderr: String(r.stderr), exitCode: r.exitCode ?? -1 };
  logs.push(result.stdout, result.stderr, signedIn.finalText);
  expect(signedIn.finalText).toContain('You can close this window');
  return { ...result, consented: signedIn.consentedScopes };
}

const sleepUntil = async (epochMs: number) => new Promise((r) => setTimeout(r, Math.max(0, epochMs - Date.now())));

// Each step runs several processes (and Chromium): on 2 shared cores under the full suite it takes longer than the default 30 s.
describe('signing in to a mounted server (OAuth 2.1 client)', { timeout: 120_000 }, () => {
  it('before any sign-in: call, servers and doctor say to run `mcphost auth tracker`, not an HTTP error', async () => {
    const call = await cli(['call', 'tracker', 'whoami']);
    expect(call.exitCode).toBe(4);
    expect(call.stderr).toContain('run `mcphost auth tracker` to sign in');
    expect(call.stderr).not.toMatch(/HTTP 401|answered 401 Unauthorized/);
    const servers = await cli(['servers', 'tracker', '--json']);
    const report = JSON.parse(servers.stdout) as { servers: Array<{ state: string; message: string }> };
    expect(report.servers[0].state).toBe('down');
    expect(report.servers[0].message).toMatch(/^upstream tracker needs a sign-in: .*run `mcphost auth tracker` to sign in$/);
    const doctor = await cli(['doctor', '--plugins', 'tracker']);
    expect(doctor.stdout + doctor.stderr).toContain('run `mcphost auth tracker`');
    const list = JSON.parse((await cli(['auth', '--list', '--json'])).stdout) as Array<{ server: string; state: string }>;
    expect(list.map((s) => [s.server, s.state])).toEqual([
      ['tracker', 'not-signed-in'],
      ['team', 'not-signed-in'],
    ]);
  });

  it('`mcphost auth tracker` signs in through the browser (dynamic registration, PKCE, resource); the tokens are kept 0600', async () => {
    const r = await signInThroughBrowser('tracker');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^signed in to tracker \(.*\), scopes: .*mcp:tools.*; 2 tools; renews itself$/);
    expect(r.consented).toContain('mcp:tools');
    expect(as.grants.authorization_code).toBe(1);
    const file = fileOf('tracker');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const record = recordOf('tracker');
    expect(record.resource).toBe(rs.url);
    expect(record.client?.client_id).toBeTruthy(); // registered dynamically
  });

  it('calls through mcphost are served with the user’s token', async () => {
    const r = await cli(['call', 'tracker', 'whoami']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('sub=alice scopes=mcp:tools');
  });

  it('an expired access token is renewed with no user step, and the rotated refresh token is kept', async () => {
    const before = recordOf('tracker');
    await sleepUntil(before.expiresAt! + 200);
    const refreshes = as.grants.refresh_token ?? 0;
    const refused = rs.refused;
    const r = await cli(['call', 'tracker', 'whoami']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('sub=alice scopes=mcp:tools');
    expect(as.grants.refresh_token).toBe(refreshes + 1);
    const after = recordOf('tracker');
    expect(after.tokens!.access_token).not.toBe(before.tokens!.access_token);
    expect(after.tokens!.refresh_token).not.toBe(before.tokens!.refresh_token); // rotated (a public client's)
    expect(after.refreshes).toBe((before.refreshes ?? 0) + 1);
    // The expired token was not sent again: it was renewed before the request.
    expect(rs.refused).toBe(refused);
  });

  it('a token the server refuses (401) while thought valid is renewed and the call sent again', async () => {
    const before = recordOf('tracker');
    await sleepUntil(before.expiresAt! + 200);
    // mcphost believes it valid for an hour more; the server knows better.
    writeFileSync(fileOf('tracker'), JSON.stringify({ ...before, expiresAt: Date.now() + 3_600_000 }), { mode: 0o600 });
    const refused = rs.refused;
    const refreshes = as.grants.refresh_token ?? 0;
    const r = await cli(['call', 'tracker', 'whoami']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('sub=alice scopes=mcp:tools');
    expect(rs.refused).toBe(refused + 1);
    expect(rs.seenTokens.has(before.tokens!.access_token)).toBe(true);
    expect(as.grants.refresh_token).toBe(refreshes + 1);
    recordOf('tracker');
  });

  it('two processes renewing at once make one renewal at the authorization server', async () => {
    as.setAccessTokenTtl(120);
    const before = recordOf('tracker');
    await sleepUntil(before.expiresAt! + 200);
    const refreshes = as.grants.refresh_token ?? 0;
    const errors = as.grantErrors.refresh_token ?? 0;
    const [a, b] = await Promise.all([cli(['call', 'tracker', 'whoami']), cli(['call', 'tracker', 'whoami'])]);
    expect([a.exitCode, b.exitCode], a.stderr + b.stderr).toEqual([0, 0]);
    expect([a.stdout, b.stdout]).toEqual(['sub=alice scopes=mcp:tools', 'sub=alice scopes=mcp:tools']);
    expect(as.grants.refresh_token).toBe(refreshes + 1);
    expect(as.grantErrors.refresh_token ?? 0).toBe(errors);
    recordOf('tracker');
  });

  it('a revoked refresh token gives the sign-in message, once: later calls ask nothing of the authorization server', async () => {
    expect(await as.revokeAllGrants()).toBeGreaterThan(0);
    const record = recordOf('tracker');
    // Due for renewal now (the access token itself would still pass for two minutes).
    writeFileSync(fileOf('tracker'), JSON.stringify({ ...record, expiresAt: Date.now() - 1_000 }), { mode: 0o600 });
    const errors = as.grantErrors.refresh_token ?? 0;
    const first = await cli(['call', 'tracker', 'whoami']);
    expect(first.exitCode).toBe(4);
    expect(first.stderr).toContain(
      'the authorization server refused to renew the sign-in to tracker (invalid_grant): run `mcphost auth tracker` to sign in',
    );
    expect(as.grantErrors.refresh_token).toBe(errors + 1);
    const grants = { ...as.grants };
    const seen = rs.seenTokens.size;
    const again = await cli(['call', 'tracker', 'whoami']);
    expect(again.exitCode).toBe(4);
    expect(again.stderr).toContain('run `mcphost auth tracker` to sign in');
    expect(again.stderr).not.toContain('warn'); // warned once, by the process that found out
    expect(as.grantErrors.refresh_token).toBe(errors + 1);
    expect(as.grants).toEqual(grants);
    expect(rs.seenTokens.size).toBe(seen);
    const list = JSON.parse((await cli(['auth', '--list', '--json'])).stdout) as Array<{ server: string; state: string; message: string }>;
    expect(list[0]).toMatchObject({ server: 'tracker', state: 'needs-sign-in' });
  });

  it('over `serve`: the tool error, /health and /metrics say to sign in; signing in again in another shell serves the next call', async () => {
    const server = await startHttp([], { cwd: t.dir, env });
    try {
      const client = await server.connect('legacy');
      const down = await client.callTool({ name: 'tracker_whoami', arguments: {} });
      expect(down.isError).toBe(true);
      const text = (down.content as Array<{ text: string }>)[0].text;
      expect(text).toContain('run `mcphost auth tracker` to sign in');
      const health = await (await fetch(server.url.replace('/mcp', '/health'))).text();
      logs.push(health, await (await fetch(server.url.replace('/mcp', '/metrics'))).text());
      expect(health).toContain('needs a sign-in');
      const again = await signInThroughBrowser('tracker');
      expect(again.exitCode, again.stderr).toBe(0);
      const up = await client.callTool({ name: 'tracker_whoami', arguments: {} });
      expect(up.isError, JSON.stringify(up.content)).toBeFalsy();
      expect(up.content).toEqual([{ type: 'text', text: 'sub=alice scopes=mcp:tools' }]);
      recordOf('tracker');
    } finally {
      await server.stop();
      logs.push(server.stderr());
    }
  });

  it('a pre-registered client with its secret from a ${…} reference signs in; config prints the secret redacted', async () => {
    const r = await signInThroughBrowser('team');
    expect(r.exitCode, r.stderr).toBe(0);
    const record = recordOf('team');
    expect(record.client).toBeUndefined(); // nothing registered: the configured client id was used
    expect(record.clientIssuer).toBe(as.issuer);
    const call = await cli(['call', 'team', 'whoami']);
    expect(call.stdout).toBe('sub=alice scopes=mcp:tools');
    const config = await cli(['config', '--json']);
    // `config` shows a secret reference as written, never the value it brings (secret references, issue 34).
    expect(JSON.parse(config.stdout).config.servers.team.oauth).toEqual({
      clientId: 'mcphost-preregistered',
      clientSecret: '${TEAM_CLIENT_SECRET}',
      scopes: ['mcp:tools'],
    });
    expect(config.stdout).not.toContain(PRE_SECRET);
  });

  it('`auth --logout` deletes the tokens and revokes the refresh token at the authorization server', async () => {
    const record = recordOf('team');
    const r = await cli(['auth', '--logout', 'team']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('signed out of team: tokens deleted and revoked at the authorization server');
    expect(await as.provider.RefreshToken.find(record.tokens!.refresh_token!)).toBeUndefined();
    const call = await cli(['call', 'team', 'whoami']);
    expect(call.exitCode).toBe(4);
    expect(call.stderr).toContain('run `mcphost auth team` to sign in');
  });

  it('no log, report or page any of these processes printed holds a token, a code or a client secret', async () => {
    await cli(['doctor']);
    await cli(['servers', '--json']);
    await cli(['auth', '--list', '--json']);
    const secrets = [...new Set([...as.issuedSecrets(), ...rs.seenTokens, ...tokensSeen])].filter((s) => s.length >= 16);
    expect(secrets.length).toBeGreaterThan(10);
    const all = logs.join('\n');
    expect(all.length).toBeGreaterThan(1000);
    for (const secret of secrets) {
      const at = all.indexOf(secret);
      expect(at, `a secret appears in the output: …${all.slice(Math.max(0, at - 80), at)}[secret]…`).toBe(-1);
    }
  });
});
