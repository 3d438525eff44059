import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { findConfig } from '../../src/config/find.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';

describe('config discovery', () => {
  const cases: Array<[string, string]> = [
    ['.mcprc', 'plugins:\n  godot: {}\n'],
    ['.mcprc', '{"plugins": {"godot": {}}}'],
    ['.mcprc.json', '{"plugins": {"godot": {}}}'],
    ['.mcprc.yaml', 'plugins:\n  godot: {}\n'],
    ['.mcprc.js', 'export default { plugins: { godot: {} } };\n'],
    ['mcphost.config.js', 'export default { plugins: { godot: {} } };\n'],
    ['package.json', '{"name": "game", "type": "module", "mcphost": {"plugins": {"godot": {}}}}'],
  ];
  for (const [name, content] of cases) {
    const js = name.endsWith('.js');
    it(`finds ${name} (${content.startsWith('{') ? 'JSON' : content.startsWith('plugins') ? 'YAML' : 'JS'}) searching up from a subfolder of home${js ? ', and runs it once approved' : ''}`, async () => {
      const { dir } = tempDir();
      const env = { HOME: dir };
      writeFileSync(path.join(dir, name), content);
      if (js) writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
      const deep = path.join(dir, 'a', 'b');
      mkdirSync(deep, { recursive: true });
      if (js) {
        const unread = await findConfig({ cwd: deep, env });
        expect(unread).toMatchObject({
          file: path.join(dir, name),
          raw: {},
          unread: true,
          trust: { trusted: false, reason: 'not-approved' },
        });
        await approve(deep, { env });
      }
      const found = await findConfig({ cwd: deep, env });
      expect(found.file).toBe(path.join(dir, name));
      expect(found.raw).toEqual({ plugins: { godot: {} } });
    });
  }

  it('uses an explicit --config file instead of searching', async () => {
    const t = tempDir();
    t.write('.mcprc', 'plugins: { pob: {} }');
    const other = t.write('custom.yaml', 'plugins: { godot: {} }');
    const found = await findConfig({ cwd: t.dir, file: 'custom.yaml' });
    expect(found.file).toBe(other);
    expect(found.raw).toEqual({ plugins: { godot: {} } });
  });

  it('says which file is missing when --config names none', async () => {
    const t = tempDir();
    await expect(findConfig({ cwd: t.dir, file: 'nope.yaml' })).rejects.toThrow(ConfigError);
    await expect(findConfig({ cwd: t.dir, file: 'nope.yaml' })).rejects.toThrow(
      `Cannot read config ${path.join(t.dir, 'nope.yaml')}: file not found`,
    );
  });

  it('reports a syntax error with the file', async () => {
    const t = tempDir();
    const file = t.write('.mcprc.json', '{"plugins": ');
    await expect(findConfig({ cwd: t.dir, env: { HOME: t.dir } })).rejects.toThrow(file);
  });

  it('rejects a config whose top level is not an object', async () => {
    const t = tempDir();
    t.write('.mcprc', '- godot\n- pob\n');
    await expect(findConfig({ cwd: t.dir, env: { HOME: t.dir } })).rejects.toThrow('expected an object at the top level');
  });

  it("passes over a plugin's own package.json (its mcphost key is the plugin's manifest) and finds the config above it", async () => {
    const { dir } = tempDir();
    writeFileSync(path.join(dir, '.mcprc.yaml'), 'plugins:\n  hello: {}\n');
    const plugin = path.join(dir, 'mcphost-plugin-hello');
    mkdirSync(plugin);
    const manifest = { name: 'mcphost-plugin-hello', oclif: {}, mcphost: { backend: './backend.js' } };
    writeFileSync(path.join(plugin, 'package.json'), JSON.stringify(manifest));
    const found = await findConfig({ cwd: plugin, env: { HOME: dir } });
    expect(found.file).toBe(path.join(dir, '.mcprc.yaml'));
    expect(found.raw).toEqual({ plugins: { hello: {} } });
    // Alone, the manifest is no config at all: nothing found, no "backend: unknown key".
    expect(await findConfig({ cwd: plugin, env: { HOME: plugin } })).toEqual({ raw: {} });
  });

  it('finds nothing (and no error) when there is no config', async () => {
    const t = tempDir();
    const found = await findConfig({ cwd: t.dir, env: { HOME: t.dir } });
    expect(found).toEqual({ raw: {} });
  });
});
