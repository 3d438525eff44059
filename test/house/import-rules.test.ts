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
      "import { defineBackend } from '../../../src/backend/index.js';\nimport { JsonLinesPeer } from '../../../src/kit/index.js';\n" +
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
