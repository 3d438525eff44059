// Issue 21, items 1 to 3, through the real binary: a .mcprc.js planted above the user's work never
// runs, whatever the command; a cloned repository's `servers` command does not start until
// `mcphost trust`, starts after it, and stops starting once the file changes; `mcphost servers`
// starts a project's .mcp.json servers only when named. Spawns are seen in the fixture server's journal.
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { connectStdio } from '../helpers/mcp.js';
import { FIXTURES, REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_SERVER, journalLines, whenListed } from '../upstream/helpers.js';

const payload = (marker: string) =>
  `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = { plugins: { pob: {} } };\n`;

/** config, tools, doctor and serve (stdio; stdin closes at once, so it stops) in `cwd`. */
function everyCommand(cwd: string, env: Record<string, string | undefined>) {
  const run = (args: string[]) => runCli(args, { cwd, env, input: '', timeout: 60_000 });
  return Promise.all([run(['config']), run(['tools']), run(['doctor']), run(['serve', '--plugins', 'pob'])]);
}

describe('a .mcprc.js planted above the working directory', () => {
  it('never runs from a folder outside home, for config, tools, doctor or serve', async () => {
    const planted = tempDir('mcphost-planted-');
    const home = tempDir('mcphost-home-');
    const marker = path.join(planted.dir, 'RAN');
    planted.write('.mcprc.js', payload(marker));
    const cwd = path.join(planted.dir, 'sub');
    mkdirSync(cwd);
    const [config, tools, doctor, serve] = await everyCommand(cwd, isolatedEnv(home.dir));
    expect(existsSync(marker)).toBe(false);
    expect(config).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('config file: none found') });
    expect(tools).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('No plugins to serve') });
    expect(doctor.stdout).toContain('config: no config file found');
    expect(serve.exitCode).toBe(0);
    for (const r of [config, tools, doctor, serve]) expect(r.stdout + r.stderr).not.toContain('.mcprc.js');
  });

  it('never runs from above the top of a git repository inside home', async () => {
    const home = tempDir('mcphost-home-');
    const marker = path.join(home.dir, 'RAN');
    const work = path.join(home.dir, 'work');
    const repo = path.join(work, 'game');
    mkdirSync(path.join(repo, 'src'), { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    home.write('work/.mcprc.js', payload(marker));
    const results = await everyCommand(path.join(repo, 'src'), isolatedEnv(home.dir));
    expect(existsSync(marker)).toBe(false);
    for (const r of results) expect(r.stdout + r.stderr).not.toContain('.mcprc.js');
  });
});

describe("a cloned repository's servers", () => {
  it('start nothing until `mcphost trust`, start after it, and stop starting once the file changes', async () => {
    const home = tempDir('mcphost-home-');
    const env = isolatedEnv(home.dir);
    const repo = path.join(home.dir, 'src', 'cloned');
    mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    const journal = path.join(home.dir, 'journal');
    const rc = path.join(repo, '.mcprc');
    home.write(
      'src/cloned/.mcprc',
      `servers:\n  fx:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FIXTURE_SERVER)}]\n    env: { FIXTURE_JOURNAL: ${JSON.stringify(journal)} }\n`,
    );
    const cli = (args: string[]) => runCli(args, { cwd: repo, env, input: '', timeout: 60_000 });
    const starts = () => journalLines(journal).filter((l) => l.startsWith('start')).length;
    const hint = `not trusted: run \`mcphost trust ${rc}\``;

    const [tools, serve, servers] = await Promise.all([cli(['tools']), cli(['serve']), cli(['servers'])]);
    expect(tools.exitCode).toBe(2);
    expect(tools.stdout).toMatch(/^fx +not trusted: run `mcphost trust /);
    expect(tools.stdout).toContain(hint);
    expect(tools.stderr).toContain(`fx (servers.fx in ${rc}): ${hint}`);
    expect(serve).toMatchObject({ exitCode: 2, stderr: expect.stringContaining(hint) });
    expect(servers).toMatchObject({ exitCode: 2, stdout: expect.stringMatching(/✖ +fx +not-trusted/) });
    expect(servers.stdout).toContain(hint);
    expect(starts()).toBe(0);

    const trust = await cli(['trust']);
    expect(trust).toMatchObject({ exitCode: 0, stdout: expect.stringContaining(`approved: ${rc}`) });
    expect(trust.stdout).toContain(`may run servers.fx: ${process.execPath} ${FIXTURE_SERVER}`);
    const session = await connectStdio([], { cwd: repo, env });
    try {
      await whenListed(session.client, ['fx_echo']);
      const echoed = (await session.client.callTool({ name: 'fx_echo', arguments: { text: 'hi' } })) as {
        content: Array<{ text: string }>;
      };
      expect(echoed.content[0].text).toBe('echo: hi');
    } finally {
      await session.close();
    }
    expect(starts()).toBe(1);

    appendFileSync(rc, '# a pull later\n');
    const changed = await cli(['tools']);
    expect(changed.exitCode).toBe(2);
    expect(changed.stderr).toContain(`${hint} (it changed since you approved it)`);
    expect(starts()).toBe(1);
  });
});

describe("`mcphost servers` and a project's .mcp.json", () => {
  it('lists its servers without starting them; starts one only when named, and only once the file is approved', async () => {
    const t = tempDir();
    const env = isolatedEnv(t.dir);
    const journal = path.join(t.dir, 'journal');
    const file = t.write(
      '.mcp.json',
      JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_JOURNAL: journal } } } }),
    );
    const cli = (args: string[]) => runCli(args, { cwd: t.dir, env, timeout: 60_000 });

    const listed = await cli(['servers']);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toMatch(/- +fx +not-started/);
    expect(listed.stdout).toContain(
      `not started unasked (check it with \`mcphost servers fx\`); not trusted: run \`mcphost trust ${file}\``,
    );
    const named = await cli(['servers', 'fx']);
    expect(named).toMatchObject({ exitCode: 2, stdout: expect.stringMatching(/✖ +fx +not-trusted/) });
    expect(journalLines(journal)).toEqual([]);

    expect((await cli(['trust', '.mcp.json'])).exitCode).toBe(0);
    expect((await cli(['servers'])).stdout).toMatch(/- +fx +not-started/);
    expect(journalLines(journal)).toEqual([]);
    const checked = await cli(['servers', 'fx']);
    expect(checked).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/✔ +fx +connected +\d+ tools/) });
    expect(journalLines(journal).filter((l) => l.startsWith('start'))).toHaveLength(1);
  });
});

describe("a cloned repository's plugin settings that run programs (issue 36, item 1)", () => {
  it('`serve --plugins godot,pob,imhex` runs none of them on the first call of each, until `mcphost trust`', async () => {
    const home = tempDir('mcphost-home-');
    const env = isolatedEnv(home.dir, { POB_PATH: path.join(FIXTURES, 'pob/fake-pob') });
    const repo = path.join(home.dir, 'src', 'cloned');
    mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    const marks = path.join(home.dir, 'MARKS');
    const script = home.write('src/cloned/run.sh', `#!/bin/sh\necho "$0 $*" >> ${JSON.stringify(marks)}\nexit 1\n`);
    chmodSync(script, 0o755);
    const rc = home.write(
      'src/cloned/.mcprc',
      `plugins:\n  godot:\n    godotBinary: ./run.sh\n  pob:\n    cmd: ./run.sh\n    lua: { enabled: true }\n` +
        `  imhex:\n    mode: imhex-mcp\n    mcpCommand: [./run.sh, --mcp]\n`,
    );
    const calls = [
      { name: 'godot_search', arguments: { query: 'Node' } },
      { name: 'pob_lua_start', arguments: {} },
      { name: 'imhex_read_bytes', arguments: { offset: 0, count: 1 } },
    ];
    const session = await connectStdio(['--plugins', 'godot,pob,imhex'], { cwd: repo, env });
    try {
      for (const call of calls) {
        const result = (await session.client.callTool(call)) as { isError?: boolean; content: Array<{ text: string }> };
        expect(result.isError).toBe(true);
        expect(result.content[0].text).toContain(`waits for your approval of that file: run \`mcphost trust ${rc}\``);
      }
    } finally {
      await session.close();
    }
    expect(existsSync(marks)).toBe(false);
    expect(session.stderr()).toContain(`plugins.godot.godotBinary in ${rc} waits for your approval`);

    const trust = await runCli(['trust'], { cwd: repo, env });
    expect(trust.stdout).toContain(`may run plugins.godot.godotBinary: ./run.sh (a program)`);
    const approved = await connectStdio(['--plugins', 'godot,pob,imhex'], { cwd: repo, env });
    try {
      for (const call of calls) await approved.client.callTool(call);
    } finally {
      await approved.close();
    }
    // godotBinary and cmd (programPath()) resolve ./run.sh against the file's folder, as a path in it.
    const ran = readFileSync(marks, 'utf8');
    expect(ran).toContain(`${script} --version`);
    expect(ran).toContain(`${script} ${path.join(REPO, 'plugins/pob/live/lua/server.lua')}`);
    expect(ran).toContain('run.sh --mcp');
  });
});
