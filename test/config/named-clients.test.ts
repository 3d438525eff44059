// http.clients in .mcprc: a token kept as its hash or behind a reference, never as written; from a
// project file not approved, not applied at all (they decide who gets in).
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { resolveConfig } from '../../src/config/resolve.js';

const file = '/projects/game/.mcprc';
const hash = `sha256:${'ab'.repeat(32)}`;
const resolve = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => resolveConfig({ found: { file, raw }, env, cwd: '/w' });

function configErrorOf(work: () => unknown): ConfigError {
  try {
    work();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('http.clients', () => {
  it('takes a hash or a reference, with tools, limits, subjects and scopes', () => {
    const r = resolve(
      {
        http: {
          clients: {
            ci: { token: hash, tools: { allow: ['godot_*'] }, limits: { rate: { perMinute: 30 }, concurrency: 2 } },
            dev: { token: '${env:DEV_TOKEN}', tools: { deny: ['imhex_write_*'] } },
            alice: { subjects: ['alice@example.com'], scopes: ['mcp:team'] },
          },
        },
      },
      { DEV_TOKEN: 'from-the-environment' },
    );
    expect(r.config.http.clients.ci).toMatchObject({ token: hash, tools: { allow: ['godot_*'], deny: [] }, limits: { concurrency: 2 } });
    expect(r.config.http.clients.dev.tools).toEqual({ allow: ['*'], deny: ['imhex_write_*'] });
    // `config` shows the reference as written, never the value.
    expect(r.references.get('http.clients.dev.token')).toBe('${env:DEV_TOKEN}');
  });

  it('refuses a token written as it is, naming the key and what to write instead', () => {
    const error = configErrorOf(() => resolve({ http: { clients: { ci: { token: 'hunter2' } } } }));
    expect(error.lines).toEqual([expect.objectContaining({ path: 'http.clients.ci.token' })]);
    expect(error.lines[0].message).toMatch(/mcphost clients:add ci/);
    expect(error.lines[0].message).toMatch(/\$\{env:MCPHOST_CI_TOKEN\}/);
    expect(error.message + JSON.stringify(error.lines)).not.toContain('hunter2');
  });

  it('refuses a client nobody can be, and a name that is not one', () => {
    expect(configErrorOf(() => resolve({ http: { clients: { ci: { tools: { allow: ['*'] } } } } })).lines[0]).toMatchObject({
      path: 'http.clients.ci',
      message: expect.stringMatching(/give it a token/),
    });
    expect(configErrorOf(() => resolve({ http: { clients: { 'has space': { token: hash } } } })).lines[0].path).toMatch(/http\.clients/);
  });

  it('is not applied from a project file that is not approved', () => {
    const trust = { file, trusted: false, reason: 'not-approved' as const, sha256: '0'.repeat(64) };
    const r = resolveConfig({ found: { file, raw: { http: { clients: { ci: { token: hash } } } }, trust }, env: {}, cwd: '/w' });
    expect(r.config.http.clients).toEqual({});
    expect(r.withheld).toEqual(['http.clients']);
  });
});

describe('the docs\' "Sharing one mcphost" examples', () => {
  it('are valid configs as written', async () => {
    const { parse } = await import('yaml');
    const { docSection } = await import('../helpers/docs.js');
    const section = docSection('## Sharing one mcphost');
    const blocks = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]) as Record<string, unknown>);
    expect(blocks.length).toBe(2);
    const r = resolve({ ...blocks[0], ...blocks[1] }, { DANA_TOKEN: 'dana-secret' });
    expect(Object.keys(r.config.http.clients)).toEqual(['ci-bot', 'dana', 'team']);
    expect(r.config.http.clients['ci-bot'].limits).toMatchObject({ rate: { perMinute: 60, burst: 10 }, concurrency: 2 });
    expect(r.config.audit).toEqual({ file: '/var/log/mcphost/audit.jsonl', maxBytes: 10485760, keep: 5, arguments: false });
  });
});
