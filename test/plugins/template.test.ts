// plugins/_template is the plugin to copy: copied under a new name into a folder laid out as this
// repository is (plugins/<name>/ beside src/, linked to the real one), it loads as a module plugin with
// no file edited, and its tool answers through the MCP SDK client. The template itself is not served.
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinNames } from '../../src/loader/builtins.js';
import { serveInProcess } from '../helpers/in-process.js';
import { REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';

const t = tempDir('mcphost-template-');
mkdirSync(path.join(t.dir, 'plugins'));
// The copy imports the contract as every plugin does (../../src/backend/index.js): the same module.
symlinkSync(path.join(REPO, 'src'), path.join(t.dir, 'src'), 'dir');
cpSync(path.join(REPO, 'plugins/_template'), path.join(t.dir, 'plugins/salute'), { recursive: true });
const entry = path.join(t.dir, 'plugins/salute/index.ts');

describe('plugins/_template', () => {
  it('is not a built-in plugin (folders starting with _ are skipped)', () => {
    expect(builtinNames()).not.toContain('_template');
    expect(builtinNames()).toContain('exile');
  });

  it('copied under a new name, loads as a module plugin and answers its tool with its setting over the SDK client', async () => {
    t.write('.mcprc.yaml', `plugins:\n  salute:\n    module: ${entry}\n    greeting: ahoy\n`);
    await approve(t.dir);
    const session = await serveInProcess({ cwd: t.dir });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['salute_greet']);
      const answer = await session.client.callTool({ name: 'salute_greet', arguments: { name: 'Ada' } });
      expect(answer).toMatchObject({ content: [{ type: 'text', text: 'ahoy, Ada!' }] });
      expect(answer.isError).toBeFalsy();
      const bad = await session.client.callTool({ name: 'salute_greet', arguments: { name: '' } });
      expect(bad.isError).toBe(true);
      expect((bad.content as Array<{ text: string }>)[0].text).toMatch(/name/);
      const health = await session.registry.hosts[0].backend.health?.(session.registry.hosts[0].context);
      expect(health).toEqual({ ok: true, message: 'greeting with "ahoy"' });
    } finally {
      await session.close();
    }
  });
});
