// The configs users already have: `mcpServers` in .mcprc, and the servers of Claude Code's .mcp.json
// and Cursor's .cursor/mcp.json in the working directory (read as those clients write them).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeDesktopConfig, clientFiles, readClientFile } from '../../src/config/clients.js';
import { ConfigError } from '../../src/config/errors.js';
import { findConfig } from '../../src/config/find.js';
import { describeSource } from '../../src/config/layers.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { tempDir } from '../helpers/tmp.js';

async function resolveIn(dir: string, env: NodeJS.ProcessEnv = {}, plugins?: string[]) {
  const found = await findConfig({ cwd: dir, env: { HOME: dir, ...env } });
  return resolveConfig({ found, env, cwd: dir, plugins });
}

describe('mcpServers in .mcprc', () => {
  it('takes the Claude Desktop / Cursor shape (type included) beside servers, with sources', async () => {
    const t = tempDir();
    t.write(
      '.mcprc.json',
      JSON.stringify({
        servers: { a: { command: 'a' } },
        mcpServers: { b: { type: 'stdio', command: 'b', args: ['x'] }, c: { type: 'http', url: 'http://127.0.0.1:9/mcp' } },
      }),
    );
    const r = await resolveIn(t.dir);
    expect(Object.keys(r.config.servers)).toEqual(['a', 'b', 'c']);
    expect(r.plugins).toEqual(['a', 'b', 'c']);
    expect(describeSource(r.sources.get('servers.b.args')!)).toBe(`file ${path.join(t.dir, '.mcprc.json')}`);
    expect('mcpServers' in r.config).toBe(false);
  });

  it('refuses one name in both, and a type that contradicts the entry', () => {
    const found = { file: '/p/.mcprc', raw: { servers: { a: { command: 'a' } }, mcpServers: { a: { command: 'b' } } } };
    expect(() => resolveConfig({ found, env: {}, cwd: '/p' })).toThrow(/mcpServers\.a: servers\.a is defined too/);
    // An entry that contradicts itself cannot be used; the rest of the file still can.
    const wrong = { file: '/p/.mcprc', raw: { mcpServers: { a: { type: 'http', command: 'b' } }, servers: { b: { command: 'b' } } } };
    const r = resolveConfig({ found: wrong, env: {}, cwd: '/p' });
    expect(r.unusable.get('a')?.error).toBeInstanceOf(ConfigError);
    expect(r.unusable.get('a')?.key).toBe('mcpServers.a');
    expect(Object.keys(r.config.servers)).toEqual(['b']);
  });
});

describe("clients' project files", () => {
  it('makes the servers of .mcp.json callable by name with no .mcprc, started in the project folder, never served unasked', async () => {
    const t = tempDir();
    const file = t.write(
      '.mcp.json',
      JSON.stringify({
        mcpServers: {
          tracker: { type: 'stdio', command: 'node', args: ['./server.js'], env: { TOKEN: '${TOKEN:-none}' }, alwaysAllow: ['x'] },
          remote: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${API}' } },
          mcphost: { command: 'mcphost', args: ['serve', '--plugins', 'godot'] },
          off: { command: 'x', disabled: true },
        },
      }),
    );
    const r = await resolveIn(t.dir, { TOKEN: 't0k' });
    expect(r.config.servers.tracker).toEqual({ type: 'stdio', command: 'node', args: ['./server.js'], env: { TOKEN: 't0k' }, cwd: t.dir });
    expect(r.plugins).toEqual([]);
    expect(describeSource(r.sources.get('servers.tracker.command')!)).toBe(`file ${file}`);
    // Kept aside with the reason: an unset variable, mcphost itself, disabled in the client.
    expect(r.config.servers.remote).toBeUndefined();
    expect(r.imported.get('remote')).toMatchObject({ file, error: expect.stringContaining('environment variable API is not set') });
    expect(r.imported.get('mcphost')?.error).toBe('it starts mcphost itself');
    expect(r.imported.get('off')?.error).toBe('disabled in the client');
  });

  it(".mcprc wins over a client's file, .mcp.json over .cursor/mcp.json, and imports: [] reads neither", async () => {
    const t = tempDir();
    mkdirSync(path.join(t.dir, '.cursor'));
    t.write('.mcp.json', JSON.stringify({ mcpServers: { shared: { command: 'from-claude' }, a: { command: 'a' } } }));
    writeFileSync(
      path.join(t.dir, '.cursor', 'mcp.json'),
      JSON.stringify({
        mcpServers: { shared: { command: 'from-cursor' }, b: { command: '${workspaceFolder}/b', env: { K: '${env:K}' } } },
      }),
    );
    t.write('.mcprc', 'servers:\n  a: { command: mine }\n');
    const r = await resolveIn(t.dir, { K: 'v' });
    expect(r.config.servers.a).toMatchObject({ command: 'mine' });
    expect(r.config.servers.shared).toMatchObject({ command: 'from-claude' });
    expect(r.config.servers.b).toMatchObject({ command: `${t.dir}/b`, env: { K: 'v' } });
    expect(r.plugins).toEqual(['a']);
    t.write('.mcprc', 'imports: []\n');
    expect(Object.keys((await resolveIn(t.dir)).config.servers)).toEqual([]);
  });

  it("reads Claude Code's ~/.claude.json (this project's servers first) and names a broken file", () => {
    const t = tempDir();
    const project = path.join(t.dir, 'game');
    const home = path.join(t.dir, 'home');
    mkdirSync(project);
    mkdirSync(home);
    const file = path.join(home, '.claude.json');
    writeFileSync(
      file,
      JSON.stringify({
        numStartups: 3,
        mcpServers: { shared: { command: 'user' }, u: { command: 'u' } },
        projects: { [project]: { mcpServers: { shared: { command: 'local' } } }, '/elsewhere': { mcpServers: { no: { command: 'n' } } } },
      }),
    );
    const user = clientFiles('claude-code', project, { HOME: home }).find((f) => f.scope === 'user')!;
    expect(user.file).toBe(file);
    const read = readClientFile(user, project, { HOME: home })!;
    expect(read.servers).toEqual({ shared: { command: 'local' }, u: { command: 'u' } });
    writeFileSync(file, '{"mcpServers": ');
    expect(() => readClientFile(user, project, { HOME: home })).toThrow(`Cannot read claude-code's ${file}`);
  });

  it('knows where Claude Desktop keeps its config on each platform', () => {
    expect(claudeDesktopConfig({ HOME: '/h' }, 'darwin')).toBe('/h/Library/Application Support/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfig({ HOME: '/h' }, 'linux')).toBe('/h/.config/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfig({ HOME: '/h', APPDATA: 'C:\\AppData' }, 'win32')).toContain('claude_desktop_config.json');
  });
});
