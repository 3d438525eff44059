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
    expect(await restricted('src/audit/probe.ts', "export { x } from '../cli/render.js';\n")).toHaveLength(1);
    expect(await restricted('src/commands/probe.ts', "export { x } from '../cli/render.js';\n")).toEqual([]);
  });
});

describe('the commands reach the core through src/app', () => {
  const syntax = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };

  it('lets a command import src/app, src/cli, packages, any type, and CLIENT_KINDS', async () => {
    const code =
      "import { Flags } from '@oclif/core';\nimport path from 'node:path';\nimport { openHost } from '../app/open.js';\n" +
      "import { columns } from '../../cli/columns.js';\nimport type { Override } from '../config/resolve.js';\n" +
      "import { type TokenReport } from '../discover/tokens.js';\nimport { CLIENT_KINDS, type ClientKind } from '../config/clients.js';\n" +
      'export type T = [Override, TokenReport, ClientKind];\nexport { Flags, path, openHost, columns, CLIENT_KINDS };\n';
    expect(await restricted('src/commands/plugins/probe.ts', code)).toEqual([]);
    expect(await syntax('src/commands/probe.ts', "export const load = () => import('../app/serve.js');\n")).toEqual([]);
  });

  it('refuses a command importing any other part of the core, a sibling or the package by name', async () => {
    for (const code of [
      "import { createLogger } from '../lib/logger.js';\n",
      "export { serveOnStdio } from '../server/stdio.js';\n",
      "import { PluginLoadError } from '../loader/errors.js';\n",
      "import { CLIENT_FORMATS } from '../config/clients.js';\n",
      "import { x } from './servers.js';\n",
      "import { defineBackend } from 'mcphost';\n",
    ])
      expect(await restricted('src/commands/probe.ts', code), code).toHaveLength(1);
    expect(await restricted('src/commands/plugins/probe.ts', "import { closest } from '../../kit/closest.js';\n")).toHaveLength(1);
  });

  it("refuses a command's import() of the core, and one whose module is not a literal", async () => {
    expect(await syntax('src/commands/probe.ts', "export const load = () => import('../server/http.js');\n")).toHaveLength(1);
    expect(await syntax('src/commands/probe.ts', 'export const load = (m: string) => import(m);\n')).toHaveLength(1);
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
