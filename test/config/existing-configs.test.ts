// Writing configs users already have, or will: `mcphost init`'s starter .mcprc, `servers:import`
// into .mcprc (keeping its comments), and `connect` adding mcphost to a client's file.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectClient } from '../../src/app/connect.js';
import { importServers } from '../../src/app/import-servers.js';
import { initConfig } from '../../src/app/init.js';
import { configReport } from '../../src/app/inspect.js';
import { UsageError } from '../../src/app/usage-error.js';
import { FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const DOC = path.join(FIXTURES, 'godot/doc4');
const quiet = { writeLog: () => undefined };

describe('mcphost init', () => {
  it("writes a starter .mcprc from the plugins' schemas that resolves cleanly, with settings from the environment", async () => {
    const t = tempDir();
    const env = { HOME: t.dir, GODOT_DOC_DIR: DOC };
    const result = await initConfig({ cwd: t.dir, env, plugins: ['godot', 'pob'] });
    expect(result.file).toBe(path.join(t.dir, '.mcprc'));
    const text = readFileSync(result.file, 'utf8');
    expect(text).toMatch(/^ {4}# pobPath: .*POB_PATH/m);
    expect(text).toMatch(/^ {4}restartAfterLoads: 50 .*POB_RESTART_AFTER_LOADS/m);
    // Read back with no environment at all: the file alone carries the doc dir.
    const report = await configReport({ cwd: t.dir, env: { HOME: t.dir }, ...quiet });
    expect(report.errors).toEqual([]);
    expect(report.plugins.value).toEqual(['godot', 'pob']);
    expect(report.config.plugins).toMatchObject({ godot: { docDir: DOC, watch: false }, pob: { cmd: 'luajit', lua: { enabled: false } } });
    expect(report.sources['plugins.godot.docDir']).toBe(`file ${result.file}`);
    await expect(initConfig({ cwd: t.dir, env, plugins: ['pob'] })).rejects.toThrow(UsageError);
    await expect(initConfig({ cwd: t.dir, env, plugins: ['pob'], force: true })).resolves.toMatchObject({ written: true });
  });
});

describe('mcphost servers:import', () => {
  it.skipIf(process.platform !== 'linux')(
    "copies Claude Code's and Claude Desktop's servers into .mcprc, keeping its comments, once",
    async () => {
      const t = tempDir();
      const home = path.join(t.dir, 'home');
      mkdirSync(path.join(home, '.config', 'Claude'), { recursive: true });
      writeFileSync(
        path.join(home, '.config', 'Claude', 'claude_desktop_config.json'),
        JSON.stringify({
          mcpServers: { desk: { command: 'npx', args: ['-y', 'desk-mcp'], env: { KEY: 'k' } }, shared: { command: 'desktop' } },
        }),
      );
      t.write(
        '.mcp.json',
        JSON.stringify({ mcpServers: { shared: { command: 'node', args: ['s.js'] }, me: { command: 'mcphost', args: ['serve'] } } }),
      );
      t.write('.mcprc', '# my settings\nplugins:\n  pob: {}   # keep pob\nservers: {}\n');
      const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
      const report = await importServers({ cwd: t.dir, env });
      expect(report.added).toEqual(['shared', 'desk']);
      expect(report.skipped).toEqual([{ name: 'me', file: path.join(t.dir, '.mcp.json'), reason: 'it starts mcphost itself' }]);
      const text = readFileSync(path.join(t.dir, '.mcprc'), 'utf8');
      expect(text).toContain('# my settings');
      expect(text).toContain('# keep pob');
      const resolved = await configReport({ cwd: t.dir, env: { HOME: t.dir }, ...quiet });
      expect(resolved.config.servers).toMatchObject({ shared: { command: 'node', args: ['s.js'], cwd: t.dir } });
      const again = await importServers({ cwd: t.dir, env, clients: ['claude-code'] });
      expect(again).toMatchObject({ added: [], present: ['shared'], written: false });
    },
  );

  it('adds to a JSON .mcprc as JSON, and leaves a JavaScript config alone', async () => {
    const t = tempDir();
    t.write('.mcp.json', JSON.stringify({ mcpServers: { a: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } }));
    t.write('.mcprc.json', '{"plugins": {"pob": {}}}');
    await importServers({ cwd: t.dir, env: { HOME: t.dir }, clients: ['claude-code'] });
    expect(JSON.parse(readFileSync(path.join(t.dir, '.mcprc.json'), 'utf8'))).toEqual({
      plugins: { pob: {} },
      servers: { a: { type: 'http', url: 'http://127.0.0.1:9/mcp' } },
    });
    const js = tempDir();
    js.write('package.json', '{"type":"module"}');
    js.write('.mcp.json', JSON.stringify({ mcpServers: { a: { command: 'a' } } }));
    const config = js.write('mcphost.config.js', 'export default {};\n');
    const report = await importServers({ cwd: js.dir, env: { HOME: js.dir }, clients: ['claude-code'] });
    expect(report).toMatchObject({ file: config, written: false, entries: { a: { command: 'a' } } });
    expect(readFileSync(config, 'utf8')).toBe('export default {};\n');
  });
});

describe('mcphost connect', () => {
  // Claude Desktop's file is under XDG_CONFIG_HOME on Linux only.
  it.skipIf(process.platform !== 'linux')(
    'adds mcphost to Claude Desktop with absolute paths and the settings the plugins need, keeping the rest',
    async () => {
      const t = tempDir();
      const home = path.join(t.dir, 'home');
      const file = path.join(home, '.config', 'Claude', 'claude_desktop_config.json');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ globalShortcut: 'x', mcpServers: { other: { command: 'o' } } }));
      const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), PATH: process.env.PATH, GODOT_DOC_DIR: DOC };
      const request = {
        cwd: t.dir,
        env,
        ...quiet,
        client: 'claude-desktop' as const,
        plugins: ['godot', 'pob'],
        node: '/n/node',
        bin: '/m/bin/run.js',
      };
      const report = await connectClient(request);
      expect(report).toMatchObject({ file, outcome: 'added' });
      expect(report.doctor.map((d) => [d.name, d.ok])).toEqual([
        ['godot', true],
        ['pob', true],
      ]);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        globalShortcut: 'x',
        mcpServers: {
          other: { command: 'o' },
          mcphost: {
            command: '/n/node',
            args: ['--max-semi-space-size=2', '--v8-pool-size=1', '/m/bin/run.js', 'serve', '--plugins', 'godot,pob'],
            env: { GODOT_DOC_DIR: DOC },
          },
        },
      });
      // Without the doc dir the entry is still written, and doctor says what will fail.
      const bare = await connectClient({ ...request, env: { ...env, GODOT_DOC_DIR: undefined } });
      expect(bare.outcome).toBe('replaced');
      expect(bare.doctor.find((d) => d.name === 'godot')).toMatchObject({ ok: false, message: expect.stringContaining('docDir') });
    },
  );

  it("writes a project's files portably: mcphost from PATH, paths relative to the project, none of this machine's", async () => {
    const t = tempDir();
    const project = path.join(t.dir, 'game');
    const docs = path.join(project, 'vendor', 'doc');
    mkdirSync(path.join(docs, 'classes'), { recursive: true });
    for (const f of ['Node.xml', 'Object.xml']) writeFileSync(path.join(docs, 'classes', f), readFileSync(path.join(DOC, 'classes', f)));
    writeFileSync(path.join(project, '.mcprc.yaml'), 'plugins:\n  pob: {}\n');
    const env = { HOME: path.join(t.dir, 'home'), PATH: process.env.PATH, GODOT_DOC_DIR: docs };
    const base = { cwd: project, env, ...quiet, plugins: ['godot', 'pob'], node: '/n/node', bin: '/m/bin/run.js' };
    const [code, cursor] = [await connectClient({ ...base, client: 'claude-code' }), await connectClient({ ...base, client: 'cursor' })];
    expect(JSON.parse(readFileSync(path.join(project, '.mcp.json'), 'utf8')).mcpServers.mcphost).toEqual({
      type: 'stdio',
      command: 'mcphost',
      args: ['serve', '--plugins', 'godot,pob'],
      env: { MCPHOST_CONFIG: '.mcprc.yaml', GODOT_DOC_DIR: 'vendor/doc' },
    });
    expect(JSON.parse(readFileSync(path.join(project, '.cursor', 'mcp.json'), 'utf8')).mcpServers.mcphost.env).toEqual({
      MCPHOST_CONFIG: '${workspaceFolder}/.mcprc.yaml',
      GODOT_DOC_DIR: '${workspaceFolder}/vendor/doc',
    });
    for (const report of [code, cursor]) {
      expect(report.machinePaths).toEqual([]);
      expect(report.doctor.every((d) => d.ok)).toBe(true);
      expect(readFileSync(report.file!, 'utf8')).not.toContain(t.dir);
    }
    // A path outside the project stays (it is what this machine needs) and is reported.
    const outside = await connectClient({ ...base, client: 'claude-code', env: { ...env, GODOT_DOC_DIR: DOC }, dryRun: true });
    expect(outside.machinePaths).toEqual(['GODOT_DOC_DIR']);
    // The user's own files keep absolute paths: nobody else uses them.
    const user = await connectClient({ ...base, client: 'cursor', global: true, dryRun: true });
    expect(user.entry).toMatchObject({
      command: '/n/node',
      env: { GODOT_DOC_DIR: docs, MCPHOST_CONFIG: path.join(project, '.mcprc.yaml') },
    });
  });
});
