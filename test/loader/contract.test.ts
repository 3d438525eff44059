import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openHost } from '../../src/app/open.js';
import { builtinNames } from '../../src/loader/builtins.js';
import { PluginLoadError } from '../../src/loader/errors.js';
import { FIXTURES, KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
let n = 0;
async function load(plugins: Record<string, unknown>, strict = true) {
  const file = t.write(`rc-${++n}.json`, JSON.stringify({ plugins }));
  return openHost({ cwd: t.dir, env: {}, configFile: file, strict, writeLog: () => undefined });
}
const bad = (name: string) => ({ module: path.join(FIXTURES, 'bad-backends', name) });

describe('loader', () => {
  it('rejects a module without a default export', async () => {
    await expect(load({ x: bad('no-default.js') })).rejects.toThrow(/plugin x: .*no-default\.js has no default export/);
  });

  it('says which part of the contract a module breaks', async () => {
    await expect(load({ x: bad('missing-handler.js') })).rejects.toThrow(
      /does not satisfy the Backend contract:\n\s+tools\[0\]\.handler: expected a function/,
    );
  });

  it('rejects zod 3 schemas, which would break tools/list for every client', async () => {
    await expect(load({ x: bad('zod3.js') })).rejects.toThrow('tools[0].input: input is a zod 3 schema; use zod ≥ 4.2');
  });

  it('reports a module that throws while loading', async () => {
    await expect(load({ x: bad('throws.js') })).rejects.toThrow(/plugin x: cannot import .*throws\.js: module blew up while loading/);
  });

  it('explains where it looked for a plugin it cannot find', async () => {
    const error = await load({ nosuch: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(PluginLoadError);
    expect(error.message).toContain(
      `plugin nosuch not found (built in: ${builtinNames().join(', ')}), and .mcprc has no plugins.nosuch.module`,
    );
    expect(error.message).toContain('mcphost plugins:install mcphost-plugin-nosuch');
  });

  it("says that a copied built-in plugin is not compiled yet, instead of only 'not found'", async () => {
    const clone = tempDir('mcphost-clone-').dir;
    mkdirSync(path.join(clone, 'dist', 'plugins'), { recursive: true });
    mkdirSync(path.join(clone, 'plugins', 'mine'), { recursive: true });
    writeFileSync(path.join(clone, 'plugins', 'mine', 'index.ts'), 'export default {};\n');
    const file = t.write(`rc-${++n}.json`, JSON.stringify({ plugins: { mine: {} } }));
    const open = openHost({ cwd: t.dir, env: {}, configFile: file, strict: true, builtinRoot: path.join(clone, 'dist', 'plugins') });
    await expect(open).rejects.toThrow(
      `plugin mine not found: ${path.join(clone, 'plugins', 'mine', 'index.ts')} is not compiled yet; run \`npm run build\` in the clone`,
    );
  });

  it('serves the backends that load when another one fails (non-strict), and fails when none loads', async () => {
    const { registry, failures } = await load({ kitchen: { module: KITCHEN }, broken: bad('throws.js') }, false);
    expect(registry.hosts.map((h) => h.name)).toEqual(['kitchen']);
    expect(failures.map((f) => f.message)).toEqual([expect.stringContaining('module blew up')]);
    await registry.close();
    await expect(load({ broken: bad('throws.js') }, false)).rejects.toThrow('module blew up');
  });

  it('imports only the requested plugins', async () => {
    const file = t.write('only.json', JSON.stringify({ plugins: { kitchen: { module: KITCHEN }, broken: bad('throws.js') } }));
    const { registry, failures } = await openHost({
      cwd: t.dir,
      env: {},
      configFile: file,
      plugins: ['kitchen'],
      writeLog: () => undefined,
    });
    expect(failures).toEqual([]);
    expect(registry.hosts.map((h) => h.name)).toEqual(['kitchen']);
    await registry.close();
  });
});
