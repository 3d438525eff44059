import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

describe('.mcprc.example', () => {
  it('is a valid config for every built-in plugin, and documents every key they take', async () => {
    const t = tempDir();
    const r = await runCli(['config', '--config', path.join(REPO, '.mcprc.example'), '--json'], { cwd: t.dir });
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.errors).toEqual([]);
    expect(report.plugins.value).toEqual(['godot', 'pob', 'imhex', 'unreal', 'exile']);
    const builtins = JSON.parse((await runCli(['plugins', '--json'], { cwd: t.dir })).stdout)
      .filter((p: { kind: string }) => p.kind === 'built-in')
      .map((p: { name: string }) => p.name)
      .sort();
    expect([...report.plugins.value].sort()).toEqual(builtins);
    // Every key a plugin resolved to (its defaults included) is written in the example.
    const example = (await import('node:fs')).readFileSync(path.join(REPO, '.mcprc.example'), 'utf8');
    for (const [plugin, section] of Object.entries(report.config.plugins as Record<string, Record<string, unknown>>)) {
      for (const key of Object.keys(section)) expect(example, `plugins.${plugin}.${key}`).toMatch(new RegExp(`^\\s*#?\\s*${key}:`, 'm'));
    }
  });
});
