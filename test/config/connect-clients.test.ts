// `mcphost connect vscode|windsurf|zed|codex`: each writes the client's own format where the client
// reads it, read back here by that format's parser (jsonc-parser for VS Code's and Zed's JSONC,
// smol-toml for Codex's TOML), keeping the user's other entries and comments, the same on a second
// run; and `servers:import` reads those files too.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { connectClient } from '../../src/app/connect.js';
import { importServers } from '../../src/app/import-servers.js';
import { ConfigError } from '../../src/config/errors.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const DOC = path.join(FIXTURES, 'godot/doc4');
const NODE_ARGS = ['--max-semi-space-size=2', '--v8-pool-size=1', '/m/bin/run.js', 'serve', '--plugins', 'pob'];

function jsonc(file: string): Record<string, unknown> {
  const errors: unknown[] = [];
  const value = parseJsonc(readFileSync(file, 'utf8'), errors as never, { allowTrailingComma: true }) as Record<string, unknown>;
  expect(errors).toEqual([]);
  return value;
}

/** A project with Godot's docs inside it, so the entry can name them relative to the project. */
function project() {
  const t = tempDir();
  const dir = path.join(t.dir, 'game');
  const docs = path.join(dir, 'vendor', 'doc');
  mkdirSync(path.join(docs, 'classes'), { recursive: true });
  for (const f of ['Node.xml', 'Object.xml']) writeFileSync(path.join(docs, 'classes', f), readFileSync(path.join(DOC, 'classes', f)));
  const home = path.join(t.dir, 'home');
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), PATH: process.env.PATH, GODOT_DOC_DIR: docs };
  const base = { cwd: dir, env, writeLog: () => undefined, plugins: ['godot'], node: '/n/node', bin: '/m/bin/run.js' };
  return { t, dir, docs, home, env, base };
}

describe('mcphost connect: VS Code, Zed, Windsurf, Codex', () => {
  it("VS Code: .vscode/mcp.json's `servers` with type stdio and ${workspaceFolder}, keeping comments and inputs", async () => {
    const { dir, base, t } = project();
    const file = path.join(dir, '.vscode', 'mcp.json');
    mkdirSync(path.dirname(file), { recursive: true });
    const before =
      '{\n  // the team\'s servers\n  "inputs": [{ "type": "promptString", "id": "key" }],\n  "servers": {\n    "other": { "type": "stdio", "command": "o" },\n  },\n}\n';
    writeFileSync(file, before);
    const report = await connectClient({ ...base, client: 'vscode' });
    expect(report).toMatchObject({ file, outcome: 'added', machinePaths: [] });
    expect(report.doctor.every((d) => d.ok)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain("// the team's servers");
    expect(text).not.toContain(t.dir);
    expect(jsonc(file)).toEqual({
      inputs: [{ type: 'promptString', id: 'key' }],
      servers: {
        other: { type: 'stdio', command: 'o' },
        mcphost: {
          type: 'stdio',
          command: 'mcphost',
          args: ['serve', '--plugins', 'godot'],
          env: { GODOT_DOC_DIR: '${workspaceFolder}/vendor/doc' },
        },
      },
    });
    await expect(connectClient({ ...base, client: 'vscode' })).resolves.toMatchObject({ outcome: 'replaced' });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it("Zed: context_servers in .zed/settings.json relative to the project (Zed starts them there), the user's with absolute paths", async () => {
    const { dir, home, docs, base } = project();
    const file = path.join(dir, '.zed', 'settings.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      '// Zed project settings\n{\n  "tab_size": 4,\n  "context_servers": { "other": { "command": "o", "args": [] } }\n}\n',
    );
    const report = await connectClient({ ...base, client: 'zed' });
    expect(report).toMatchObject({ file, outcome: 'added' });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// Zed project settings');
    expect(jsonc(file)).toEqual({
      tab_size: 4,
      context_servers: {
        other: { command: 'o', args: [] },
        mcphost: { command: 'mcphost', args: ['serve', '--plugins', 'godot'], env: { GODOT_DOC_DIR: 'vendor/doc' } },
      },
    });
    await connectClient({ ...base, client: 'zed' });
    expect(readFileSync(file, 'utf8')).toBe(text);
    // --global: the user's settings.json (a new file here), with this machine's paths.
    const user = await connectClient({ ...base, client: 'zed', global: true });
    expect(user.file).toBe(path.join(home, '.config', 'zed', 'settings.json'));
    expect((jsonc(user.file!).context_servers as Record<string, unknown>).mcphost).toEqual({
      command: '/n/node',
      args: [...NODE_ARGS.slice(0, 3), 'serve', '--plugins', 'godot'],
      env: { GODOT_DOC_DIR: docs },
    });
  });

  it("Windsurf: the user's ~/.codeium/windsurf/mcp_config.json with absolute paths, keeping its other servers", async () => {
    const { home, base } = project();
    const file = path.join(home, '.codeium', 'windsurf', 'mcp_config.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ mcpServers: { other: { serverUrl: 'http://127.0.0.1:9/sse' } } }, null, 2));
    const request = { ...base, plugins: ['pob'], client: 'windsurf' as const };
    const report = await connectClient(request);
    expect(report).toMatchObject({ file, outcome: 'added' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: { other: { serverUrl: 'http://127.0.0.1:9/sse' }, mcphost: { command: '/n/node', args: NODE_ARGS, env: {} } },
    });
    const text = readFileSync(file, 'utf8');
    await expect(connectClient(request)).resolves.toMatchObject({ outcome: 'replaced' });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it("Codex: [mcp_servers.mcphost] in ~/.codex/config.toml, keeping the user's settings, tables and comments", async () => {
    const { home, base, docs } = project();
    const file = path.join(home, '.codex', 'config.toml');
    mkdirSync(path.dirname(file), { recursive: true });
    const before = [
      '# my Codex settings',
      'model = "o3"',
      '',
      '[mcp_servers.other]',
      'command = "o"',
      'args = ["-y"]',
      '',
      '[mcp_servers.other.env]',
      'KEY = "k" # keep me',
      '',
    ].join('\n');
    writeFileSync(file, before);
    const report = await connectClient({ ...base, client: 'codex' });
    expect(report).toMatchObject({ file, outcome: 'added' });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# my Codex settings');
    expect(text).toContain('KEY = "k" # keep me');
    expect(parseToml(text)).toEqual({
      model: 'o3',
      mcp_servers: {
        other: { command: 'o', args: ['-y'], env: { KEY: 'k' } },
        mcphost: { command: '/n/node', args: [...NODE_ARGS.slice(0, 3), 'serve', '--plugins', 'godot'], env: { GODOT_DOC_DIR: docs } },
      },
    });
    await expect(connectClient({ ...base, client: 'codex' })).resolves.toMatchObject({ outcome: 'replaced' });
    expect(readFileSync(file, 'utf8')).toBe(text);
    // A later table of the user's after mcphost's survives a change of mcphost's entry.
    writeFileSync(file, `${text}\n[profiles.fast]\nmodel = "o4-mini"\n`);
    await connectClient({ ...base, client: 'codex', plugins: ['pob'] });
    const after = parseToml(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(after.profiles).toEqual({ fast: { model: 'o4-mini' } });
    expect(after.mcp_servers!.mcphost).toEqual({ command: '/n/node', args: NODE_ARGS, env: {} });
    // CODEX_HOME moves the file, as it moves Codex's.
    const moved = await connectClient({ ...base, client: 'codex', env: { ...base.env, CODEX_HOME: path.join(home, 'cx') }, dryRun: true });
    expect(moved.file).toBe(path.join(home, 'cx', 'config.toml'));
  });

  it('Codex: an mcphost entry written as an inline table is refused by name, the file left as it was', async () => {
    const { home, base } = project();
    const file = path.join(home, '.codex', 'config.toml');
    mkdirSync(path.dirname(file), { recursive: true });
    const before = '[mcp_servers]\nmcphost = { command = "old" }\n';
    writeFileSync(file, before);
    const failure = connectClient({ ...base, client: 'codex' });
    await expect(failure).rejects.toThrow(ConfigError);
    await expect(failure).rejects.toThrow(/mcp_servers\.mcphost .*inline table/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('refuses a JSONC file that does not parse, naming it, and leaves it alone', async () => {
    const { dir, base } = project();
    const file = path.join(dir, '.vscode', 'mcp.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{ "servers": { ');
    await expect(connectClient({ ...base, client: 'vscode' })).rejects.toThrow(
      new RegExp(`Cannot update ${file.replace(/[.]/g, '\\.')}: it is not valid JSONC`),
    );
    expect(readFileSync(file, 'utf8')).toBe('{ "servers": { ');
    writeFileSync(file, '{ "servers": [] }');
    await expect(connectClient({ ...base, client: 'vscode' })).rejects.toThrow(/"servers" is not an object/);
  });
});

describe('mcphost connect without --plugins', () => {
  it("gives the client the backends the project's .mcprc lists, and says what to do when there is none", async () => {
    const { dir, docs, base } = project();
    const noPlugins = { ...base, plugins: [] };
    await expect(connectClient({ ...noPlugins, client: 'zed', dryRun: true })).rejects.toThrow(
      'name the backends the client should get: --plugins godot,pob, or list them in a .mcprc here (`mcphost init` writes one)',
    );
    writeFileSync(path.join(dir, '.mcprc.yaml'), `plugins:\n  godot:\n    docDir: ${docs}\n  pob: { enabled: false }\n`);
    const report = await connectClient({ ...noPlugins, env: { ...base.env, GODOT_DOC_DIR: undefined }, client: 'zed', dryRun: true });
    expect(report.entry.args).toEqual(['serve', '--plugins', 'godot']);
    expect(report.entry.env).toEqual({ MCPHOST_CONFIG: '.mcprc.yaml' });
    expect(report.doctor.map((d) => [d.name, d.ok])).toEqual([['godot', true]]);
    writeFileSync(path.join(dir, '.mcprc.yaml'), 'log:\n  level: info\n');
    await expect(connectClient({ ...noPlugins, client: 'zed', dryRun: true })).rejects.toThrow(
      `name the backends the client should get: --plugins godot,pob (${path.join(dir, '.mcprc.yaml')} lists none)`,
    );
  });
});

describe('mcphost servers:import from VS Code, Zed and Codex', () => {
  it('reads .vscode/mcp.json (JSONC, ${workspaceFolder}), .zed/settings.json and ~/.codex/config.toml', async () => {
    const t = tempDir();
    const home = path.join(t.dir, 'home');
    for (const d of ['.vscode', '.zed']) mkdirSync(path.join(t.dir, d));
    t.write(
      '.vscode/mcp.json',
      '{\n  // comment\n  "servers": { "fs": { "type": "stdio", "command": "npx", "args": ["fs-mcp", "${workspaceFolder}/data"] } },\n}\n',
    );
    t.write(
      '.zed/settings.json',
      '{ "context_servers": { "old-zed": { "command": { "path": "zs", "args": ["a"], "env": {} } }, "ext": { "settings": {} } } }',
    );
    mkdirSync(path.join(home, '.codex'), { recursive: true });
    writeFileSync(
      path.join(home, '.codex', 'config.toml'),
      '[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = ["--x"]\n[mcp_servers.docs.env]\nA = "1"\n[mcp_servers.off]\ncommand = "x"\nenabled = false\n',
    );
    const report = await importServers({ cwd: t.dir, env: { HOME: home }, clients: ['vscode', 'zed', 'codex'], dryRun: true });
    expect(report.entries).toEqual({
      fs: { type: 'stdio', command: 'npx', args: ['fs-mcp', `${t.dir}/data`], cwd: t.dir },
      'old-zed': { command: 'zs', args: ['a'], env: {}, cwd: t.dir },
      docs: { command: 'docs-mcp', args: ['--x'], env: { A: '1' } },
    });
    expect(report.skipped.map((s) => [s.name, s.reason])).toEqual([
      ['ext', 'neither command nor url'],
      ['off', 'disabled in the client'],
    ]);
  });
});
