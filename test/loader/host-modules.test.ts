// The parts of a third-party install that need no npm: which specs are local (npm's rules, not
// oclif's "anything with a slash is GitHub"), and the resolve hook that provides `mcphost`.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installSpec } from '../../src/loader/install-spec.js';
import { initialize, resolve } from '../../src/loader/resolve-hook.js';

describe('install specs', () => {
  it('takes relative, absolute and home paths, tarballs and file: URLs as local, made absolute', () => {
    const at = (input: string) => installSpec(input, '/work/game', '/home/u');
    expect(at('./x.tgz')).toEqual({ kind: 'local', path: '/work/game/x.tgz', url: 'file:/work/game/x.tgz' });
    expect(at('x-1.0.0.tgz')).toMatchObject({ url: 'file:/work/game/x-1.0.0.tgz' });
    expect(at('../plugin')).toMatchObject({ url: 'file:/work/plugin' });
    expect(at('~/p.tar.gz')).toMatchObject({ url: 'file:/home/u/p.tar.gz' });
    expect(at('/abs/dir')).toMatchObject({ url: 'file:/abs/dir' });
    expect(at('file:rel/x.tgz')).toMatchObject({ url: `file:${path.resolve('/work/game', 'rel/x.tgz')}` });
  });

  it('leaves npm names, GitHub slugs and URLs to oclif', () => {
    for (const input of ['mcphost-plugin-foo', '@scope/pkg', 'someuser/someplugin', 'https://github.com/a/b', 'https://x.org/p.tgz'])
      expect(installSpec(input, '/w', '/h')).toEqual({ kind: 'other' });
  });
});

describe('the resolve hook', () => {
  initialize({
    entries: { mcphost: 'file:///host/dist/src/backend/index.js', 'mcphost/kit': 'file:///host/dist/src/kit/index.js' },
    lent: ['zod'],
    parentURL: 'file:///host/dist/src/loader/host-modules.js',
  });
  const notFound = () => Object.assign(new Error('not found'), { code: 'ERR_MODULE_NOT_FOUND' });

  it("answers mcphost and mcphost/kit with the host's files, whatever the plugin has installed", async () => {
    const next = () => ({ url: 'file:///plugin/node_modules/mcphost/index.js' });
    expect(await resolve('mcphost', { parentURL: 'file:///plugin/backend.js' }, next)).toEqual({
      url: 'file:///host/dist/src/backend/index.js',
      shortCircuit: true,
    });
    expect((await resolve('mcphost/kit', {}, next)).url).toBe('file:///host/dist/src/kit/index.js');
    expect((await resolve('other', {}, next)).url).toBe('file:///plugin/node_modules/mcphost/index.js');
  });

  it("lends the host's zod only to a plugin that has none", async () => {
    const seen: Array<string | undefined> = [];
    const next = async (specifier: string, context?: { parentURL?: string }) => {
      seen.push(context?.parentURL);
      if (context?.parentURL?.startsWith('file:///plugin')) throw notFound();
      return { url: `file:///host/node_modules/${specifier}/index.js` };
    };
    expect((await resolve('zod', { parentURL: 'file:///plugin/backend.js' }, next)).url).toBe('file:///host/node_modules/zod/index.js');
    expect(seen).toEqual(['file:///plugin/backend.js', 'file:///host/dist/src/loader/host-modules.js']);
    const own = async () => ({ url: 'file:///plugin/node_modules/zod/index.js' });
    expect((await resolve('zod/v4', { parentURL: 'file:///plugin/backend.js' }, own)).url).toBe('file:///plugin/node_modules/zod/index.js');
  });
});
