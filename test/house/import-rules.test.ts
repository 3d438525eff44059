// The import direction (README "Layout") is enforced by lint: these probes are what a contributor
// might write, linted with the repository's own config as if they were files in the tree.
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths.js';

const eslint = new ESLint({ cwd: REPO });

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import direction', () => {
  it('lets a plugin import the two public entry points and its own files', async () => {
    const code =
      "import { defineBackend } from '../../../src/backend/index.js';\nimport { JsonLinesPeer } from '../../../src/kit/json-lines/index.js';\n" +
      "import { parse } from '../parse/xml.js';\nexport { defineBackend, JsonLinesPeer, parse };\n";
    expect(await restricted('plugins/godot/lookup/probe.ts', code)).toEqual([]);
  });

  it('refuses a plugin importing host internals or another plugin, at any depth', async () => {
    expect(await restricted('plugins/godot/probe.ts', "export { createLogger } from '../../src/lib/logger.js';\n")).toHaveLength(1);
    expect(await restricted('plugins/godot/probe.ts', "export { parse } from '../pob/xml.js';\n")).toHaveLength(1);
    expect(await restricted('plugins/exile/snapshot/eval/probe.ts', "export { x } from '../../../pob/xml.js';\n")).toHaveLength(1);
    expect(
      await restricted('plugins/exile/snapshot/eval/probe.ts', "export { x } from '../../../../src/registry/registry.js';\n"),
    ).toHaveLength(1);
  });

  it('refuses src/ importing a plugin, and the core importing the CLI', async () => {
    expect(await restricted('src/commands/probe.ts', "export { x } from '../../plugins/exile/index.js';\n")).toHaveLength(1);
    expect(await restricted('src/registry/probe.ts', "export { x } from '../cli/render.js';\n")).toHaveLength(1);
    expect(await restricted('src/app/probe.ts', "export { x } from '../commands/call.js';\n")).toHaveLength(1);
    expect(await restricted('src/commands/probe.ts', "export { x } from '../cli/render.js';\n")).toEqual([]);
  });
});

describe('no plugin named in src/', () => {
  const named = async (file: string) => {
    const [result] = await eslint.lintText('export const x = 1;\n', { filePath: path.join(REPO, file) });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };

  it('refuses a file or folder under src/ named for a built-in plugin (src/commands/exile/snapshot.ts was one)', async () => {
    for (const file of ['src/commands/exile/snapshot.ts', 'src/commands/pob/build.ts', 'src/app/godot.ts', 'src/cli/unreal-help.ts'])
      expect(await named(file), file).toEqual([expect.stringContaining('src/ names no plugin')]);
  });

  it('lets the host keep its own folders, and a plugin its own files', async () => {
    for (const file of ['src/commands/servers/import.ts', 'src/cli/plugin-command.ts', 'plugins/exile/record-command.ts'])
      expect(await named(file), file).toEqual([]);
  });
});
