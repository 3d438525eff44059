// Hostile config files (issue 14, items 2 and 11): each is refused quickly with a ConfigError (exit 3)
// that names the file, on the path every command takes (`tools`, `call` and `serve` all open the host).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openHost } from '../../src/app/open.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { ConfigError } from '../../src/config/errors.js';
import { findConfig } from '../../src/config/find.js';
import { checkConfigShape } from '../../src/config/limits.js';
import { isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { aliasBomb, deepJson } from '../fixtures/config-bombs.js';

async function refusal(dir: string): Promise<ConfigError> {
  const error = await openHost({
    cwd: dir,
    env: isolatedEnv(dir) as NodeJS.ProcessEnv,
    plugins: ['godot'],
    writeLog: () => undefined,
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  expect(exitCodeFor(error)).toBe(3);
  return error as ConfigError;
}

describe('hostile config files', () => {
  it('refuses a 9-level YAML alias bomb in .mcprc (about 540 bytes, 9^9 values expanded), naming the file', async () => {
    const t = tempDir();
    const file = t.write('.mcprc', aliasBomb(9));
    expect(aliasBomb(9).length).toBeGreaterThan(500);
    const error = await refusal(t.dir);
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/aliases .* repeat more than 100 values/);
  });

  it('refuses the 7-level bomb too, and reads a config that uses a few aliases', async () => {
    const t = tempDir();
    t.write('.mcprc.yaml', aliasBomb(7));
    expect((await refusal(t.dir)).message).toContain(path.join(t.dir, '.mcprc.yaml'));
    const ok = tempDir();
    ok.write('.mcprc', 'servers:\n  s1: { command: a, env: &env { A: "1" } }\n  s2: { command: b, env: *env }\n');
    const found = await findConfig({ cwd: ok.dir, env: { HOME: ok.dir } });
    expect(found.raw).toEqual({ servers: { s1: { command: 'a', env: { A: '1' } }, s2: { command: 'b', env: { A: '1' } } } });
  });

  it('refuses a .mcprc.json nested 2,000 deep with the file and the key path, instead of a stack overflow', async () => {
    const t = tempDir();
    const file = t.write('.mcprc.json', deepJson(2000));
    const error = await refusal(t.dir);
    expect(error.message).toContain(`Invalid config in ${file}: plugins.godot.a.a.a`);
    expect(error.message).toContain('nested more than 64 levels deep');
    expect(error.message).not.toMatch(/RangeError|call stack/);
  });

  it('refuses deep YAML nesting and a .mcprc.js value that contains itself', async () => {
    const t = tempDir();
    t.write('.mcprc.yaml', `plugins:\n  godot:\n    x: ${'['.repeat(2000)}1${']'.repeat(2000)}\n`);
    const deep = await refusal(t.dir);
    expect(deep.message).toContain(path.join(t.dir, '.mcprc.yaml'));
    expect(deep.message).toMatch(/nested (too deeply|more than 64 levels)/);
    const js = tempDir();
    js.write('package.json', '{"type":"module"}');
    const file = js.write('.mcprc.js', 'const godot = {}; godot.self = { godot }; export default { plugins: { godot } };\n');
    // Code runs only when trusted: named with --config, it is.
    await expect(findConfig({ cwd: js.dir, file: '.mcprc.js', env: { HOME: js.dir } })).rejects.toThrow(
      `${file}: plugins.godot.self.godot contains itself`,
    );
  });

  it('bounds the number of values and the text a config holds, wherever they come from', () => {
    expect(() => checkConfigShape({ servers: { x: { args: Array(100_001).fill('a') } } }, '/p/.mcprc.json')).toThrow(
      'Invalid config in /p/.mcprc.json: servers.x.args holds more than 100,000 values',
    );
    expect(() => checkConfigShape({ a: 'x'.repeat(17 * 1024 * 1024) }, undefined)).toThrow('a holds more than 16 MiB of text');
    const shared = { v: 'ok' };
    expect(() => checkConfigShape({ a: shared, b: shared, c: [shared, shared] }, undefined)).not.toThrow();
  });
});
