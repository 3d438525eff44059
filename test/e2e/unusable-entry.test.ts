// Issue 24 item 1, through the real binary: one server entry whose ${VAR} is not set, imported from
// Claude Code's .mcp.json, is warned about at import (naming the variable) and skips only itself:
// `call godot search` still answers, the entry `connect` wrote earlier still starts and serves, and
// what names the broken entry fails with exit 3 and says which variable to set.
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { BIN, FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_SERVER } from '../upstream/helpers.js';

describe('an imported entry whose ${VAR} is not set', () => {
  it('is warned about at import and skips only itself', async () => {
    const home = tempDir('mcphost-home-');
    const project = path.join(home.dir, 'game');
    mkdirSync(project);
    execFileSync('git', ['init', '-q', project]);
    const env = isolatedEnv(home.dir, { TRACKER_TOKEN: undefined });
    const run = (args: string[]) => runCli(args, { cwd: project, env, timeout: 60_000 });
    home.write('game/.mcprc.yaml', `plugins:\n  godot:\n    docDir: ${path.join(FIXTURES, 'godot/doc4')}\n`);

    const connected = await run(['connect', 'cursor', '--plugins', 'godot']);
    expect(connected.exitCode).toBe(0);
    const written = JSON.parse(readFileSync(path.join(project, '.cursor/mcp.json'), 'utf8')).mcpServers.mcphost;

    home.write(
      'game/.mcp.json',
      JSON.stringify({ mcpServers: { tracker: { command: 'node', args: [FIXTURE_SERVER], env: { TOKEN: '${TRACKER_TOKEN}' } } } }),
    );
    const imported = await run(['servers:import', 'claude-code']);
    expect(imported.exitCode).toBe(0);
    expect(imported.stdout).toContain('added to');
    expect(imported.stderr).toMatch(/warning: tracker: servers\.tracker\.env\.TOKEN: .*TRACKER_TOKEN is not set/);
    expect((await run(['trust'])).exitCode).toBe(0);

    const call = await run(['call', 'godot', 'search', '--query', 'Vector2', '--json']);
    expect(call.exitCode).toBe(0);
    expect(call.stdout).toContain('Vector2');

    // The broken entry, where it is used: named, it fails with exit 3 and says what to set.
    const named = await run(['call', 'tracker', 'echo', '--text', 'hi']);
    expect(named.exitCode).toBe(3);
    expect(named.stderr).toContain('TRACKER_TOKEN is not set');
    const tools = await run(['tools']);
    expect(tools.stdout).toMatch(/godot_search/);
    expect(tools.stdout).toMatch(/tracker +cannot be used: .*TRACKER_TOKEN/);

    // The client entry connect wrote before the import, started as Cursor starts it: `mcphost` from
    // PATH (here a link to this checkout's bin, as `npm link` makes), ${workspaceFolder} expanded.
    expect(written).toMatchObject({ command: 'mcphost', env: { MCPHOST_CONFIG: '${workspaceFolder}/.mcprc.yaml' } });
    const binDir = path.join(home.dir, 'bin');
    mkdirSync(binDir);
    symlinkSync(BIN, path.join(binDir, 'mcphost'));
    const transport = new StdioClientTransport({
      command: written.command,
      args: written.args,
      env: {
        ...(env as Record<string, string>),
        PATH: `${binDir}${path.delimiter}${env.PATH}`,
        MCPHOST_CONFIG: written.env.MCPHOST_CONFIG.replace('${workspaceFolder}', project),
      },
      cwd: home.dir,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cursor-like', version: '1.0.0' });
    try {
      await client.connect(transport);
      const listed = await client.listTools();
      expect(listed.tools.map((t) => t.name)).toContain('godot_search');
    } finally {
      await client.close();
    }
  }, 120_000);
});
