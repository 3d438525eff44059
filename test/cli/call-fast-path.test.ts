// `mcphost call` has two ways in: bin/run.js's fast path (src/cli/call-main.ts, no oclif loaded) for
// every call but `--help`, and the oclif command (src/commands/call.ts). Each case here runs both —
// the real binary for the first, the oclif command in-process for the second — and asks for the
// same stdout, stderr and exit code; and the fast path must see the installed plugins oclif sees.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import Call from '../../src/commands/call.js';
import { installedWithoutOclif } from '../../src/cli/call-main.js';
import { installedPackages, type OclifPluginLike } from '../../src/loader/installed.js';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { FIXTURES, KITCHEN, REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';
import { runCommand, runInProcess } from './run-command.js';

const t = tempDir();
t.write('.mcprc.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\n    greeting: hi\n`);
await approve(t.dir);
const env = isolatedEnv(t.dir);

const both = async (argv: string[], extra: Record<string, string> = {}) => {
  const [fast, full] = await Promise.all([
    runCli(['call', ...argv], { cwd: t.dir, env: { ...env, ...extra } }),
    runCommand(Call, argv, { cwd: t.dir, env: { ...env, ...extra } }),
  ]);
  return { fast, full };
};

describe('mcphost call: fast path and oclif path', () => {
  it.each([
    ['a call', ['kitchen', 'echo', '--message', 'world', '--times', '2']],
    ['a call by published name, --json', ['kitchen_echo', '--message', 'x', '--json']],
    ['an unknown flag', ['kitchen', 'echo', '--mesage', 'x']],
    ['a bad value, --json', ['kitchen', 'add', '--a', 'one', '--b', '2', '--json']],
    ['a tool error', ['kitchen', 'boom']],
    ['a tool error, --json', ['kitchen', 'boom', '--json']],
    ['an unknown plugin', ['nosuch', 'x']],
    ['no tool named', []],
  ])('%s: same stdout, stderr and exit code', async (_, argv) => {
    const { fast, full } = await both(argv);
    expect(fast).toEqual(full);
  });

  it('MCPHOST_CONTENT_TYPE=json turns JSON output on in both', async () => {
    const { fast, full } = await both(['kitchen', 'boom'], { MCPHOST_CONTENT_TYPE: 'json' });
    expect(JSON.parse(fast.stdout).error.exit).toBe(5);
    expect(fast).toEqual(full);
  });
});

describe('the bundled fast path and a plugin share one contract', () => {
  it('keeps src/backend and src/kit out of the bundle: a plugin outside the repo throws the classes the host checks', async () => {
    const cli = path.join(REPO, 'dist/src/cli');
    const bundle = readdirSync(cli)
      .filter((f) => /^call\.(bundle|chunk-)/.test(f))
      .map((f) => readFileSync(path.join(cli, f), 'utf8'))
      .join('\n');
    expect(bundle).toContain('from "../backend/errors.js"');
    expect(bundle).not.toMatch(/class (ToolError|UnavailableError|RequestError)\b/);

    const home = tempDir('mcphost-outside-');
    home.write(
      'plugin.js',
      [
        "import { defineBackend, ToolError, UnavailableError } from 'mcphost';",
        'export default defineBackend({',
        "  name: 'outside', version: '1.0.0', description: 'outside the repo',",
        '  tools: [',
        "    { name: 'down', description: 'down', input: { jsonSchema: { type: 'object' } }, handler: () => { throw new UnavailableError('the outside service is off'); } },",
        "    { name: 'bad', description: 'bad', input: { jsonSchema: { type: 'object' } }, handler: () => { throw new ToolError('no such row', { code: 'INVALID_ARGUMENT' }); } },",
        '  ],',
        '});',
        '',
      ].join('\n'),
    );
    home.write('.mcprc.yaml', `plugins:\n  outside:\n    module: ${path.join(home.dir, 'plugin.js')}\n`);
    await approve(home.dir);
    const run = (tool: string) => runCli(['call', 'outside', tool, '--json'], { cwd: home.dir, env: isolatedEnv(home.dir) });
    const [down, bad] = await Promise.all([run('down'), run('bad')]);
    expect(down.exitCode).toBe(4);
    expect(JSON.parse(down.stdout).error).toEqual({ message: 'the outside service is off', exit: 4, code: 'UNAVAILABLE' });
    expect(bad.exitCode).toBe(1);
    expect(JSON.parse(bad.stdout).error).toMatchObject({ message: 'no such row', exit: 1, code: 'INVALID_ARGUMENT' });
  });
});

describe('what a one-shot call loads', () => {
  // Start-up is timed in bench/startup.bench.js; this keeps the packages it was cut by out of a piped
  // call, so that a top-level import put back by mistake fails here and not only in a benchmark.
  it('a piped call loads no terminal layout, progress bar, atomic writer, code-config loader, oclif or MCP SDK', async () => {
    const log = path.join(t.dir, 'modules.log');
    const r = await runCli(['call', 'kitchen', 'echo', '--message', 'w'], {
      cwd: t.dir,
      env: { ...env, MODULE_LOG: log, NODE_OPTIONS: `--import=${pathToFileURL(path.join(FIXTURES, 'module-log/register.mjs')).href}` },
    });
    expect(r.stdout).toBe('hi w');
    const files = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (line.startsWith('file:') ? fileURLToPath(line) : line));
    // A package bundled into dist/src/cli's call chunks is named there by esbuild's `// node_modules/…` comments.
    const bundled = files
      .filter((f) => /dist\/src\/cli\/call\./.test(f))
      .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]));
    const packages = new Set([...files.flatMap((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1] ?? []), ...bundled]);
    expect(packages).toContain('zod'); // the log works: the plugin's schemas need zod
    expect(packages).toContain('yaml'); // and sees bundled packages: .mcprc.yaml is read with yaml
    for (const heavy of [
      'string-width',
      'wrap-ansi',
      'cli-progress',
      'write-file-atomic',
      'signal-exit',
      'cosmiconfig',
      'fastest-levenshtein',
      '@oclif/core',
      '@modelcontextprotocol/core',
    ])
      expect(packages, heavy).not.toContain(heavy);
  });
});

describe('what a local-file imhex call loads', () => {
  // imhex's index once imported stock ImHex's MCP client statically, so every read of a local file
  // loaded the kit's MCP client and the SDK; only a mode that may reach stock ImHex loads them now,
  // and a read loads none of the search, map and write code either.
  it('no MCP module, no execa, no search, map or write code of the plugin', async () => {
    const log = path.join(t.dir, 'imhex-modules.log');
    const file = t.write('firmware.bin', 'MZ hello, firmware');
    const r = await runCli(['call', 'imhex', 'read_bytes', '--offset', '2', '--count', '4', '--file', file], {
      cwd: t.dir,
      env: { ...env, MODULE_LOG: log, NODE_OPTIONS: `--import=${pathToFileURL(path.join(FIXTURES, 'module-log/register.mjs')).href}` },
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('2068656c'); // " hel"
    const files = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (line.startsWith('file:') ? fileURLToPath(line) : line));
    const imhex = files.filter((f) => f.includes(path.join('dist', 'plugins', 'imhex')));
    expect(imhex.some((f) => f.endsWith(path.join('imhex', 'local', 'file-provider.js')))).toBe(true); // the log works
    expect(files.filter((f) => /node_modules\/(@modelcontextprotocol|execa)\/|dist\/src\/kit\/(mcp\/|upstream\.js)/.test(f))).toEqual([]);
    expect(imhex.filter((f) => /\/(mcp|remote)\/|\/(search|search-pool|map-pool|write|scan|file-map|byte-stats)\.js$/.test(f))).toEqual([]);
  });
});

describe('installed plugins without oclif', () => {
  it('are the user and linked plugins oclif lists; a plugin with oclif hooks leaves the call to oclif', async () => {
    const home = tempDir('mcphost-data-');
    const dataDir = path.join(home.dir, '.local/share/mcphost');
    const userRoot = path.join(dataDir, 'node_modules/mcphost-plugin-user');
    mkdirSync(userRoot, { recursive: true });
    writeFileSync(
      path.join(userRoot, 'package.json'),
      JSON.stringify({
        name: 'mcphost-plugin-user',
        version: '1.2.3',
        type: 'module',
        oclif: {},
        mcphost: { backend: './b.js', name: 'usr' },
      }),
    );
    writeFileSync(path.join(userRoot, 'b.js'), 'export default {};\n');
    const record = (plugins: unknown[]) =>
      writeFileSync(path.join(dataDir, 'package.json'), JSON.stringify({ private: true, oclif: { schema: 1, plugins } }));
    const hello = path.join(FIXTURES, 'mcphost-plugin-hello');
    record([
      { name: 'mcphost-plugin-user', type: 'user', tag: 'latest' },
      { name: 'mcphost-plugin-hello', type: 'link', root: hello },
    ]);
    const homeEnv = isolatedEnv(home.dir);
    let fromOclif: ReturnType<typeof installedPackages> = [];
    await runInProcess({ cwd: home.dir, env: homeEnv }, async (config) => {
      fromOclif = installedPackages(config.getPluginsList() as unknown as OclifPluginLike[]);
    });
    const sorted = (list: typeof fromOclif) => [...list].sort((a, b) => a.backendName.localeCompare(b.backendName));
    expect(sorted(fromOclif).map((p) => p.backendName)).toEqual(['hello', 'usr']);
    expect(sorted(installedWithoutOclif(homeEnv as NodeJS.ProcessEnv)!)).toEqual(sorted(fromOclif));

    writeFileSync(
      path.join(userRoot, 'package.json'),
      JSON.stringify({
        name: 'mcphost-plugin-user',
        version: '1.2.3',
        oclif: { hooks: { init: './hook.js' } },
        mcphost: { backend: './b.js' },
      }),
    );
    expect(installedWithoutOclif(homeEnv as NodeJS.ProcessEnv)).toBeUndefined();
  });
});
