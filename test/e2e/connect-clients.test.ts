// Issue 24 item 5, through the real binary: the entries `connect zed` and `connect codex` write are
// read back with the client's format (JSONC, TOML) and started as that client starts them — Zed:
// `mcphost` from PATH in the project root with paths relative to it (zed-industries/zed#35271);
// Codex: the absolute node and bin/run.js from ~/.codex/config.toml — and answer over MCP.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { BIN, FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

interface Entry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

async function searchThrough(entry: Entry, cwd: string, env: Record<string, string>): Promise<string> {
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    env: { ...env, ...entry.env },
    cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'client-like', version: '1.0.0' });
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: 'godot_search', arguments: { query: 'Node' } });
    return JSON.stringify(result.content);
  } finally {
    await client.close();
  }
}

describe('connect zed and codex, started as the clients start them', () => {
  it('serves godot from the entries each wrote', async () => {
    const home = tempDir('mcphost-home-');
    const project = path.join(home.dir, 'game');
    const docs = path.join(project, 'vendor', 'doc');
    mkdirSync(path.join(docs, 'classes'), { recursive: true });
    for (const f of ['Node.xml', 'Object.xml'])
      writeFileSync(path.join(docs, 'classes', f), readFileSync(path.join(FIXTURES, 'godot/doc4/classes', f)));
    const env = isolatedEnv(home.dir, { GODOT_DOC_DIR: docs });
    const run = (args: string[]) => runCli(args, { cwd: project, env, timeout: 60_000 });
    // What a client hands a server: a small environment, no GODOT_DOC_DIR of its own.
    const binDir = path.join(home.dir, 'bin');
    mkdirSync(binDir);
    symlinkSync(BIN, path.join(binDir, 'mcphost'));
    const clientEnv = { HOME: home.dir, PATH: `${binDir}${path.delimiter}${process.env.PATH}` };

    expect((await run(['connect', 'zed', '--plugins', 'godot'])).exitCode).toBe(0);
    const zed = (parseJsonc(readFileSync(path.join(project, '.zed/settings.json'), 'utf8')) as { context_servers: Record<string, Entry> })
      .context_servers.mcphost!;
    expect(zed).toEqual({ command: 'mcphost', args: ['serve', '--plugins', 'godot'], env: { GODOT_DOC_DIR: 'vendor/doc' } });
    expect(await searchThrough(zed, project, clientEnv)).toContain('Node');

    expect((await run(['connect', 'codex', '--plugins', 'godot'])).exitCode).toBe(0);
    const codex = (
      parseToml(readFileSync(path.join(home.dir, '.codex/config.toml'), 'utf8')) as unknown as { mcp_servers: Record<string, Entry> }
    ).mcp_servers.mcphost!;
    expect(codex).toMatchObject({ command: process.execPath, env: { GODOT_DOC_DIR: docs } });
    expect(codex.args).toContain(BIN);
    expect(await searchThrough(codex, home.dir, { HOME: home.dir, PATH: process.env.PATH! })).toContain('Node');
  }, 120_000);
});
