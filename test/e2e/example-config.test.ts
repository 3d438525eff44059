// .mcprc.example is a valid config for every built-in plugin and documents every key they resolve
// to. In-process: `mcphost config --config .mcprc.example` is configReport, the plugins' list the
// built-in folder.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configReport } from '../../src/app/inspect.js';
import { builtinNames } from '../../src/loader/builtins.js';
import { REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

describe('.mcprc.example', () => {
  it('is a valid config for every built-in plugin, and documents every key they take', async () => {
    const t = tempDir();
    const report = await configReport({
      cwd: t.dir,
      env: { HOME: t.dir },
      configFile: path.join(REPO, '.mcprc.example'),
      writeLog: () => undefined,
    });
    expect(report.errors).toEqual([]);
    expect([...report.plugins.value].sort()).toEqual(builtinNames());
    // Every key a plugin resolved to (its defaults included) is written in the example.
    const example = readFileSync(path.join(REPO, '.mcprc.example'), 'utf8');
    for (const [plugin, section] of Object.entries(report.config.plugins as Record<string, Record<string, unknown>>)) {
      for (const key of Object.keys(section)) expect(example, `plugins.${plugin}.${key}`).toMatch(new RegExp(`^\\s*#?\\s*${key}:`, 'm'));
    }
  });
});
