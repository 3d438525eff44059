// Finding a backend by name: "did you mean" for a typo, and the servers of a project's .mcp.json,
// called by name with no .mcprc (through the real stdio upstream and the fixture MCP server).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openHost } from '../../src/app/open.js';
import { ConfigError } from '../../src/config/errors.js';
import { builtinNames } from '../../src/loader/builtins.js';
import { PluginLoadError } from '../../src/loader/errors.js';
import { isolatedEnv } from '../helpers/cli.js';
import { callInProcess } from '../helpers/in-process.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';
import { FIXTURE_SERVER } from '../upstream/helpers.js';

async function loadError(dir: string, plugins: string[]): Promise<Error> {
  const env = isolatedEnv(dir) as NodeJS.ProcessEnv;
  return openHost({ cwd: dir, env, plugins, strict: true, writeLog: () => undefined }).then(
    () => expect.unreachable('expected a load error'),
    (e: Error) => e,
  );
}

describe('names', () => {
  it('suggests the plugin a typo was meant to be, instead of installing the typo', async () => {
    const t = tempDir();
    const error = await loadError(t.dir, ['imhx']);
    expect(error).toBeInstanceOf(PluginLoadError);
    expect(error.message).toBe(`plugin imhx not found. Did you mean imhex? (built in: ${builtinNames().join(', ')})`);
    expect(error.message).not.toContain('mcphost-plugin-imhx');
    expect((await loadError(t.dir, ['godto'])).message).toContain('Did you mean godot?');
  });

  it('suggests a servers entry, and nothing for a name close to none', async () => {
    const t = tempDir();
    t.write('.mcprc.yaml', 'servers:\n  everything: { command: node }\n');
    expect((await loadError(t.dir, ['evrything'])).message).toContain(
      `Did you mean everything? (built in: ${builtinNames().join(', ')}; servers: everything)`,
    );
    const none = await loadError(t.dir, ['foo']);
    expect(none.message).not.toContain('Did you mean');
    expect(none.message).toContain('mcphost plugins:install mcphost-plugin-foo');
  });

  it("calls a server of the project's .mcp.json by name, with no .mcprc, once the file is approved", async () => {
    const t = tempDir();
    t.write('.mcp.json', JSON.stringify({ mcpServers: { fixture: { type: 'stdio', command: process.execPath, args: [FIXTURE_SERVER] } } }));
    const call = () => callInProcess({ cwd: t.dir, plugin: 'fixture', tool: 'echo', args: { text: 'hi' } });
    await expect(call()).rejects.toThrow(
      `fixture (claude-code's mcpServers.fixture in ${t.dir}/.mcp.json): not trusted: run \`mcphost trust`,
    );
    await approve(t.dir);
    const outcome = await call();
    expect(outcome.error).toBeUndefined();
    expect(outcome.result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
  });

  it('never lets a .mcp.json entry hide a built-in plugin, and names the file when an entry cannot be used', async () => {
    const t = tempDir();
    t.write('.mcp.json', JSON.stringify({ mcpServers: { pob: { command: 'not-pob' }, broken: { url: 'ftp://x' } } }));
    const env = isolatedEnv(t.dir) as NodeJS.ProcessEnv;
    const { loaded, registry } = await openHost({ cwd: t.dir, env, plugins: ['pob'], writeLog: () => undefined });
    expect(loaded[0].origin.kind).toBe('builtin');
    await registry.close();
    const error = await loadError(t.dir, ['broken']);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain(`Cannot mount broken from ${path.join(t.dir, '.mcp.json')} (claude-code): mcpServers.broken`);
  });
});
