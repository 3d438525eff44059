// The OAuth keys of .mcprc: servers.<name>.oauth (mcphost signing in to a server) and http.auth
// (clients signing in to mcphost), validated with the rest, errors naming the key and the fix.
import { describe, expect, it } from 'vitest';
import { docSection } from '../helpers/docs.js';
import { ConfigError } from '../../src/config/errors.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { oauthSettings } from '../../src/upstream/oauth/settings.js';

const file = '/projects/game/.mcprc';
const resolve = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => resolveConfig({ found: { file, raw }, env, cwd: '/w' });

describe('servers.<name>.oauth', () => {
  it('takes a pre-registered client whose secret is a ${…} reference', () => {
    const r = resolve(
      {
        servers: {
          linear: { url: 'https://mcp.linear.app/mcp', oauth: { clientId: 'abc', clientSecret: '${LINEAR_SECRET}', scopes: ['read'] } },
        },
      },
      { LINEAR_SECRET: 's3cret' },
    );
    expect(oauthSettings('linear', r.config.servers.linear)).toEqual({
      name: 'linear',
      url: 'https://mcp.linear.app/mcp',
      clientId: 'abc',
      clientSecret: 's3cret',
      scopes: ['read'],
      redirectPort: 0,
    });
  });

  it('refuses a secret written into the file, naming the key and the reference to use instead', () => {
    const r = resolve({
      servers: { linear: { url: 'https://mcp.linear.app/mcp', oauth: { clientId: 'abc', clientSecret: 'plain-secret' } } },
    });
    const lines = r.unusable.get('linear')!.error.lines;
    expect(lines).toEqual([
      {
        path: 'servers.linear.oauth.clientSecret',
        message:
          'a secret written into the file: give it as a reference instead, e.g. clientSecret: ${LINEAR_CLIENT_SECRET} with LINEAR_CLIENT_SECRET set in the environment',
      },
    ]);
    expect(r.unusable.get('linear')!.error.message).not.toContain('plain-secret');
  });

  it('signs in by default to an HTTP server without its own Authorization header, never to one with it or with oauth: false', () => {
    const r = resolve({
      servers: {
        plain: { url: 'https://a.example/mcp' },
        token: { url: 'https://b.example/mcp', headers: { authorization: 'Bearer x' } },
        off: { url: 'https://c.example/mcp', oauth: false },
        local: { command: 'node', args: ['s.js'] },
      },
    });
    const s = r.config.servers;
    expect(oauthSettings('plain', s.plain)?.url).toBe('https://a.example/mcp');
    expect([oauthSettings('token', s.token), oauthSettings('off', s.off), oauthSettings('local', s.local)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('refuses an unknown oauth key and a metadata-document URL that is not https, naming each', () => {
    const typo = resolve({ servers: { x: { url: 'https://a.example/mcp', oauth: { clientID: 'typo' } } } });
    expect(typo.unusable.get('x')!.error.lines).toEqual([{ path: 'servers.x.oauth.clientID', message: 'unknown key' }]);
    const plain = resolve({ servers: { x: { url: 'https://a.example/mcp', oauth: { clientMetadataUrl: 'http://a.example/c.json' } } } });
    expect(plain.unusable.get('x')!.error.lines.map((l) => l.path)).toEqual(['servers.x.oauth.clientMetadataUrl']);
  });
});

describe('http.auth', () => {
  it('takes an issuer, an audience, keys and scopes', () => {
    const r = resolve({
      http: { auth: { issuer: 'https://login.example.com', audience: 'https://mcp.example.com/mcp', scopes: ['mcp'] } },
    });
    expect(r.config.http.auth).toEqual({ issuer: 'https://login.example.com', audience: 'https://mcp.example.com/mcp', scopes: ['mcp'] });
  });

  it('fails the file naming http.auth.issuer when it is missing or not a URL', () => {
    for (const auth of [{}, { issuer: 'login.example.com' }]) {
      let error: unknown;
      try {
        resolve({ http: { auth } });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).lines.map((l) => l.path)).toContain('http.auth.issuer');
    }
  });

  it('is not applied from a project file that is not trusted (it decides who gets in)', () => {
    const trust = { file, trusted: false, reason: 'not-approved' as const, sha256: '0'.repeat(64) };
    const r = resolveConfig({ found: { file, raw: { http: { auth: { issuer: 'https://evil.example' } } }, trust }, env: {}, cwd: '/w' });
    expect(r.config.http.auth).toBeUndefined();
    expect(r.withheld).toEqual(['http.auth']);
  });
});

describe("the README's OAuth examples", () => {
  it('are valid configs as written', async () => {
    const { parse } = await import('yaml');
    const blocks = ['### Signing in to remote servers', '### Signing clients in to mcphost'].map((title) => {
      const text = docSection(title);
      const start = text.indexOf('```yaml\n') + '```yaml\n'.length;
      return parse(text.slice(start, text.indexOf('```', start))) as Record<string, unknown>;
    });
    const remote = resolve(blocks[0], { GITHUB_MCP_CLIENT_SECRET: 'x' });
    expect([...remote.unusable.keys()]).toEqual([]);
    expect(Object.keys(remote.config.servers)).toEqual(['linear', 'github']);
    expect(resolve(blocks[1]).config.http.auth?.issuer).toBe('https://login.example.com/realms/dev');
  });
});
