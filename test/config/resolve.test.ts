import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { configPath } from '../../src/backend/index.js';
import { ConfigError } from '../../src/config/errors.js';
import { describeSource } from '../../src/config/layers.js';
import { resolvePluginConfig } from '../../src/config/plugin-config.js';
import { resolveConfig } from '../../src/config/resolve.js';

const file = '/projects/game/.mcprc';
const found = (raw: Record<string, unknown>) => ({ file, raw });

function error(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('host config', () => {
  it('fills defaults and says each value came from the defaults', () => {
    const r = resolveConfig({ found: { raw: {} }, env: {}, cwd: '/w' });
    expect(r.config.http).toMatchObject({ host: '127.0.0.1', port: 7010, maxBodyBytes: 4 * 1024 * 1024 });
    expect(r.config.timeouts).toEqual({ toolMs: 60_000, startMs: 30_000, shutdownMs: 2_000, firstListMs: 5_000 });
    expect(describeSource(r.sources.get('http.port')!)).toBe('default');
  });

  it("puts caches in the user's cache directory, or where cacheDir / MCPHOST_CACHE_DIR say", () => {
    expect(resolveConfig({ found: { raw: {} }, env: { HOME: '/home/u' }, cwd: '/w' }).cacheDir).toBe(
      process.platform === 'linux' ? '/home/u/.cache/mcphost' : expect.any(String),
    );
    expect(resolveConfig({ found: { raw: {} }, env: { HOME: '/home/u', XDG_CACHE_HOME: '/xdg' }, cwd: '/w' }).cacheDir).toBe(
      process.platform === 'linux' ? '/xdg/mcphost' : expect.any(String),
    );
    expect(resolveConfig({ found: found({ cacheDir: 'cache' }), env: {}, cwd: '/w' }).cacheDir).toBe('/projects/game/cache');
    expect(resolveConfig({ found: found({}), env: { MCPHOST_CACHE_DIR: 'c' }, cwd: '/w' }).cacheDir).toBe('/w/c');
  });

  it('applies flags over environment over file over defaults, remembering the source', () => {
    const raw = { http: { port: 7100, host: '127.0.0.2' }, log: { level: 'debug' } };
    const env = { MCPHOST_PORT: '7200', MCPHOST_HOST: '127.0.0.3' };
    const r = resolveConfig({ found: found(raw), env, cwd: '/w', overrides: [{ path: 'http.port', value: 7300, flag: '--port' }] });
    expect(r.config.http.port).toBe(7300);
    expect(r.config.http.host).toBe('127.0.0.3');
    expect(r.config.log.level).toBe('debug');
    expect(describeSource(r.sources.get('http.port')!)).toBe('flag --port');
    expect(describeSource(r.sources.get('http.host')!)).toBe('env MCPHOST_HOST');
    expect(describeSource(r.sources.get('log.level')!)).toBe(`file ${file}`);
  });

  it('interpolates ${VAR} and ${VAR:-fallback} in file strings, and $${ stays literal', () => {
    const raw = { http: { token: '${TOKEN}', host: '${HOST:-127.0.0.9}' }, plugins: { x: { note: 'cost $${5}' } } };
    const r = resolveConfig({ found: found(raw), env: { TOKEN: 's3cret' }, cwd: '/w' });
    expect(r.config.http.token).toBe('s3cret');
    expect(r.config.http.host).toBe('127.0.0.9');
    expect(r.config.plugins.x.note).toBe('cost ${5}');
  });

  it('expands a fallback that holds references (${A:-${B:-x}}), only when it is used, and refuses one left open (exit 3)', () => {
    const raw = { plugins: { x: { a: '${A:-${B:-x}}', b: '${NOPE:-${B:-x}}/y', c: '${SET:-${UNSET}}', d: '${NOPE:-{}}' } } };
    const r = resolveConfig({ found: found(raw), env: { B: 'bee', SET: 'set' }, cwd: '/w' });
    expect(r.config.plugins.x).toEqual({ a: 'bee', b: 'bee/y', c: 'set', d: '{}' });
    expect(resolveConfig({ found: found(raw), env: { SET: 's' }, cwd: '/w' }).config.plugins.x).toMatchObject({ a: 'x', b: 'x/y' });
    const open = resolveConfig({ found: found({ plugins: { x: { a: '${A:-${B:-x}' } } }), env: {}, cwd: '/w' }).unusable.get('x')!.error;
    expect(open.lines).toEqual([
      { path: 'plugins.x.a', message: '${A:-… is not closed: add the } that ends it (write $${ for a literal ${)' },
    ]);
    const deep = error(() =>
      resolveConfig({ found: found({ http: { host: `${'${A:-'.repeat(9)}x${'}'.repeat(9)}` } }), env: {}, cwd: '/w' }),
    );
    expect(deep.lines[0]).toEqual({ path: 'http.host', message: expect.stringContaining('nests fallbacks more than 8 deep') });
  });

  it('names the key path and the variable when an interpolated variable is unset', () => {
    const e = error(() => resolveConfig({ found: found({ http: { token: '${NOPE}' } }), env: {}, cwd: '/w' }));
    expect(e.message).toContain(file);
    expect(e.lines).toEqual([{ path: 'http.token', message: expect.stringContaining('environment variable NOPE is not set') }]);
  });

  it('reports a wrong type with the file, key path, expected and found', () => {
    const e = error(() => resolveConfig({ found: found({ http: { port: 'seventy' } }), env: {}, cwd: '/w' }));
    expect(e.message).toContain(`Invalid config in ${file}`);
    expect(e.lines[0]).toEqual({ path: 'http.port', message: 'expected number, got a string ("seventy")' });
  });

  it('reports unknown keys at any level with the known keys, instead of ignoring them', () => {
    const e = error(() => resolveConfig({ found: found({ htpp: {}, http: { prot: 1 } }), env: {}, cwd: '/w' }));
    const paths = e.lines.map((l) => l.path).sort();
    expect(paths).toEqual(['htpp', 'http.prot']);
    expect(e.lines.find((l) => l.path === 'htpp')!.message).toMatch(
      /unknown key \(known keys: plugins, servers, mcpServers, imports, http, timeouts, cacheDir, limits, tasks, log, audit, tools, files\)/,
    );
  });

  it('marks a bad environment value with the variable it came from', () => {
    const e = error(() => resolveConfig({ found: { raw: {} }, env: { MCPHOST_PORT: 'abc' }, cwd: '/w' }));
    expect(e.lines[0].path).toBe('http.port');
    expect(e.lines[0].message).toContain('[env MCPHOST_PORT]');
  });

  it('picks plugins from --plugins, then MCPHOST_PLUGINS, then enabled sections and servers of the file', () => {
    const raw = { plugins: { godot: {}, pob: { enabled: false } }, servers: { fs: { command: 'x' } } };
    expect(resolveConfig({ found: found(raw), env: {}, cwd: '/w' }).plugins).toEqual(['godot', 'fs']);
    expect(resolveConfig({ found: found(raw), env: { MCPHOST_PLUGINS: 'pob, imhex' }, cwd: '/w' }).plugins).toEqual(['pob', 'imhex']);
    const flagged = resolveConfig({ found: found(raw), env: { MCPHOST_PLUGINS: 'pob' }, cwd: '/w', plugins: ['imhex'] });
    expect(flagged.plugins).toEqual(['imhex']);
    expect(describeSource(flagged.pluginsSource)).toBe('flag --plugins');
  });

  it('resolves a plugin module path against the config file folder', () => {
    const r = resolveConfig({ found: found({ plugins: { mine: { module: './lib/mine.js' } } }), env: {}, cwd: '/elsewhere' });
    expect(r.config.plugins.mine.module).toBe(path.resolve('/projects/game/lib/mine.js'));
  });

  it('validates servers entries as a stdio command or an HTTP url, setting aside only the bad one', () => {
    const r = resolveConfig({ found: found({ servers: { bad: { url: 'ftp://x' }, good: { command: 'x' } } }), env: {}, cwd: '/w' });
    expect(r.unusable.get('bad')!.error.lines.some((l) => l.path.startsWith('servers.bad'))).toBe(true);
    expect(Object.keys(r.config.servers)).toEqual(['good']);
    // Served by default, so that serving says why it is left out.
    expect(r.plugins).toEqual(['good', 'bad']);
  });

  it('sets aside an entry whose ${VAR} is not set, naming the variable, and keeps the rest of the file (item 1 of issue 24)', () => {
    const raw = {
      plugins: { godot: { docDir: '${GODOT_DIR}' }, pob: {} },
      servers: { tracker: { command: 'node', env: { TOKEN: '${TRACKER_TOKEN}' } }, off: { command: '${NOPE}', enabled: false } },
      http: { port: 7100 },
    };
    const r = resolveConfig({ found: found(raw), env: {}, cwd: '/w' });
    expect(r.config.http.port).toBe(7100);
    expect(Object.keys(r.config.plugins)).toEqual(['pob']);
    expect(r.config.servers).toEqual({});
    const tracker = r.unusable.get('tracker')!;
    expect(tracker.error.message).toContain(`servers.tracker in ${file} cannot be used`);
    expect(tracker.error.lines).toEqual([
      { path: 'servers.tracker.env.TOKEN', message: expect.stringContaining('environment variable TRACKER_TOKEN is not set') },
    ]);
    expect(r.unusable.get('godot')!.error.lines[0]).toMatchObject({ path: 'plugins.godot.docDir' });
    // A disabled entry is not served, so nothing reports it unless it is named.
    expect(r.plugins).toEqual(['pob', 'godot', 'tracker']);
    expect(r.unusable.get('off')!.disabled).toBe(true);
  });
});

describe('plugin sections', () => {
  const schema = z.object({
    docDir: configPath().default('./doc'),
    watch: z.boolean().default(false),
    lua: z.object({ enabled: z.boolean().default(false), timeoutMs: z.number().int().default(10_000) }).prefault({}),
  });
  const env = { docDir: 'DOC_DIR', 'lua.enabled': 'LUA_ON' };

  it('validates the section, strips host keys, applies env with coercion and records sources', () => {
    const r = resolveConfig({
      found: found({ plugins: { p: { eager: true, watch: true, lua: { timeoutMs: 5 } } } }),
      env: { LUA_ON: 'yes' },
      cwd: '/w',
    });
    const { value, sources } = resolvePluginConfig(r, { name: 'p', schema, env });
    expect(value).toEqual({ docDir: path.resolve('/projects/game', './doc'), watch: true, lua: { enabled: true, timeoutMs: 5 } });
    expect(describeSource(sources.get('plugins.p.lua.enabled')!)).toBe('env LUA_ON');
    expect(describeSource(sources.get('plugins.p.watch')!)).toBe(`file ${file}`);
    expect(describeSource(sources.get('plugins.p.docDir')!)).toBe('default');
  });

  it('resolves a configPath from the file against the file folder, and from env against the cwd', () => {
    const fromFile = resolveConfig({ found: found({ plugins: { p: { docDir: 'docs' } } }), env: {}, cwd: '/w' });
    expect((resolvePluginConfig(fromFile, { name: 'p', schema, env }).value as { docDir: string }).docDir).toBe('/projects/game/docs');
    const fromEnv = resolveConfig({ found: found({ plugins: { p: {} } }), env: { DOC_DIR: 'docs' }, cwd: '/w' });
    expect((resolvePluginConfig(fromEnv, { name: 'p', schema, env }).value as { docDir: string }).docDir).toBe('/w/docs');
  });

  it('reports a wrong type and an unknown nested key with the full key path', () => {
    const r = resolveConfig({ found: found({ plugins: { p: { watch: 'often', lua: { enable: true } } } }), env: {}, cwd: '/w' });
    const e = error(() => resolvePluginConfig(r, { name: 'p', schema, env }));
    expect(e.lines).toEqual(
      expect.arrayContaining([
        { path: 'plugins.p.watch', message: 'expected boolean, got a string ("often")' },
        { path: 'plugins.p.lua.enable', message: 'unknown key (known keys: enabled, timeoutMs)' },
      ]),
    );
  });

  it('refuses settings for a plugin that takes none', () => {
    const r = resolveConfig({ found: found({ plugins: { p: { color: 'red' } } }), env: {}, cwd: '/w' });
    const e = error(() => resolvePluginConfig(r, { name: 'p' }));
    expect(e.lines[0]).toEqual({ path: 'plugins.p.color', message: 'unknown key (plugin p takes no settings)' });
  });

  it('applies flag overrides for plugin keys over env and file', () => {
    const r = resolveConfig({
      found: found({ plugins: { p: { watch: false } } }),
      env: {},
      cwd: '/w',
      overrides: [{ path: 'plugins.p.watch', value: 'true', flag: '--watch' }],
    });
    const { value, sources } = resolvePluginConfig(r, { name: 'p', schema, env });
    expect(value).toMatchObject({ watch: true });
    expect(describeSource(sources.get('plugins.p.watch')!)).toBe('flag --watch');
  });

  it("is pure: the resolved config is frozen, and resolving a section (with one call's flags) writes nothing into it", () => {
    const r = resolveConfig({ found: found({ plugins: { p: { watch: false } } }), env: { LUA_ON: 'true' }, cwd: '/w' });
    const before = structuredClone({ config: r.config, sources: [...r.sources], overrides: r.overrides });
    const oneCall = resolvePluginConfig(r, { name: 'p', schema, env }, [{ path: 'plugins.p.watch', value: 'true', flag: '--watch' }]);
    expect(oneCall.value).toMatchObject({ watch: true, lua: { enabled: true } });
    expect(describeSource(oneCall.sources.get('plugins.p.watch')!)).toBe('flag --watch');
    // The same section resolved again, as `mcphost config` would after a call: the call's flag is gone.
    const again = resolvePluginConfig(r, { name: 'p', schema, env });
    expect(again.value).toMatchObject({ watch: false });
    expect(describeSource(again.sources.get('plugins.p.watch')!)).toBe(`file ${file}`);
    expect({ config: r.config, sources: [...r.sources], overrides: r.overrides }).toEqual(before);
    expect(Object.isFrozen(r.config.plugins.p) && Object.isFrozen(r.config.http) && Object.isFrozen(r.plugins)).toBe(true);
    expect(() => (r.overrides as unknown as unknown[]).push({})).toThrow(TypeError);
    expect(() => (r.sources as Map<string, unknown>).set('x', {})).toThrow('read-only');
    expect(() => {
      (r.config.http as { port: number }).port = 1;
    }).toThrow(TypeError);
  });
});
