// `mcphost read <uri>`: the URI's scheme picks the backend, so `read --help`'s own example works
// with no --plugins and no .mcprc.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readResourceAt } from '../../src/app/resource.js';
import { isolatedEnv } from '../helpers/cli.js';
import { FIXTURES, KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';

const LAB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../cli/fixtures/lab/index.js');
const configured = tempDir('mcphost-read-');
// `ghost` does not exist: loading it would log a warning, so a clean read shows only lab was loaded.
configured.write('.mcprc.yaml', `plugins:\n  lab:\n    module: ${LAB}\n  kitchen:\n    module: ${KITCHEN}\n  ghost: {}\n`);
await approve(configured.dir);
const bare = tempDir('mcphost-read-bare-');

function read(cwd: string, uri: string, extra: { plugins?: string[]; env?: Record<string, string> } = {}) {
  const log: string[] = [];
  const reading = readResourceAt({ cwd, env: isolatedEnv(cwd, extra.env), plugins: extra.plugins, uri, writeLog: (l) => log.push(l) });
  return reading.then((r) => ({ text: r.contents.map((c) => c.text).join(''), log: log.join('') }));
}

describe('read', () => {
  it('loads only the backend the scheme names', async () => {
    const r = await read(configured.dir, 'lab://ok');
    expect(r.text).toBe('label lab');
    expect(r.log).toBe('');
  });

  it("serves read --help's example with no --plugins and no .mcprc (godot://class/Node2D)", async () => {
    const r = await read(bare.dir, 'godot://class/Node2D', { env: { GODOT_DOC_DIR: path.join(FIXTURES, 'godot/doc4') } });
    expect(r.text).toMatch(/^# Node2D/m);
  });

  it('asks the configured backends when the scheme names none, and --plugins when given', async () => {
    expect((await read(configured.dir, 'kitchen://menu', { plugins: ['kitchen'] })).text).toContain('# Menu');
    await expect(read(configured.dir, 'nowhere://x', { plugins: ['lab'] })).rejects.toThrow('no resource nowhere://x in lab');
  });
});
