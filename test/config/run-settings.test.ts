// Issue 36, item 1: a cloned repository's .mcprc names programs and code through plugin settings
// (godot's godotBinary, imhex's mcpCommand, pob's cmd, pobPath, forkPath and args). Until the file
// is approved, none of them runs on any path — `serve` (the first call of a tool), `call`, `doctor`,
// `connect --dry-run` (its doctor check) and `init` — and each feature that needs one says what to
// approve, while the rest of the plugin works. Each setting points at something that would leave a
// marker file when run (a shell script, or Lua code luajit runs); once the file is approved, the
// same call leaves the marker, so the set-up does reach the program.
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { connectClient } from '../../src/app/connect.js';
import { doctorReport } from '../../src/app/inspect.js';
import { initConfig } from '../../src/app/init.js';
import { manageTrust } from '../../src/app/trust.js';
import { configReport } from '../../src/app/inspect.js';
import type { InstalledPackage } from '../../src/loader/installed.js';
import { isolatedEnv } from '../helpers/cli.js';
import { callInProcess, hostInProcess } from '../helpers/in-process.js';
import { BIN, FIXTURES } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

interface Place {
  home: string;
  repo: string;
  rc: string;
  marker: string;
  env: Record<string, string | undefined>;
}

interface Case {
  setting: string;
  plugin: string;
  tool: string;
  args: Record<string, unknown>;
  /** The plugin's section of the cloned .mcprc; writes what the setting points at. */
  section(place: Place): string;
}

const shellMarker = (place: Place, name: string) => {
  const script = path.join(place.repo, name);
  writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> ${JSON.stringify(place.marker)}\nexit 1\n`);
  chmodSync(script, 0o755);
  return script;
};
const luaMarker = (marker: string) => `local f = io.open(${JSON.stringify(marker)}, 'a'); f:write('ran\\n'); f:close()\n`;
/** The files checkForkPath wants of the pob-api fork's src folder. */
const forkFolder = (dir: string, wrapper = '') => {
  mkdirSync(path.join(dir, 'API'), { recursive: true });
  for (const f of ['Launch.lua', 'API/Server.lua', 'API/Handlers.lua']) writeFileSync(path.join(dir, f), '');
  writeFileSync(path.join(dir, 'HeadlessWrapper.lua'), wrapper);
};

const CASES: Case[] = [
  {
    setting: 'plugins.godot.godotBinary',
    plugin: 'godot',
    tool: 'search',
    args: { query: 'Node' },
    section: (p) => {
      shellMarker(p, 'godot.sh');
      return `godot:\n    godotBinary: ./godot.sh\n`;
    },
  },
  {
    setting: 'plugins.imhex.mcpCommand',
    plugin: 'imhex',
    tool: 'read_bytes',
    args: { offset: 0, count: 1 },
    // imhex-mcp: not the TCP plugin an ImHex on this machine may be serving.
    section: (p) => `imhex:\n    mode: imhex-mcp\n    mcpCommand: [${JSON.stringify(shellMarker(p, 'imhex.sh'))}, --mcp]\n`,
  },
  {
    setting: 'plugins.pob.cmd',
    plugin: 'pob',
    tool: 'lua_start',
    args: {},
    section: (p) => {
      // The user's own PoB checkout, named in their environment; the file's luajit is not theirs.
      p.env.POB_PATH = path.join(FIXTURES, 'pob/fake-pob');
      return `pob:\n    cmd: ${JSON.stringify(shellMarker(p, 'luajit.sh'))}\n    lua: { enabled: true }\n`;
    },
  },
  {
    setting: 'plugins.pob.pobPath',
    plugin: 'pob',
    tool: 'lua_start',
    args: {},
    section: (p) => {
      const pob = path.join(p.repo, 'PathOfBuilding');
      cpSync(path.join(FIXTURES, 'pob/fake-pob'), pob, { recursive: true });
      const wrapper = path.join(pob, 'src/HeadlessWrapper.lua');
      writeFileSync(wrapper, luaMarker(p.marker) + readFileSync(wrapper, 'utf8'));
      return `pob:\n    pobPath: ./PathOfBuilding\n    lua: { enabled: true }\n`;
    },
  },
  {
    setting: 'plugins.pob.forkPath',
    plugin: 'pob',
    tool: 'lua_start',
    args: {},
    section: (p) => {
      forkFolder(path.join(p.repo, 'fork/src'), luaMarker(p.marker));
      return `pob:\n    forkPath: ./fork/src\n    lua: { enabled: true }\n`;
    },
  },
  {
    setting: 'plugins.pob.args',
    plugin: 'pob',
    tool: 'lua_start',
    args: {},
    section: (p) => {
      // The user's own fork, named in their environment: harmless; the file's args are not.
      const fork = path.join(p.home, 'Projects/pob-api-fork/src');
      forkFolder(fork);
      p.env.POB_FORK_PATH = fork;
      const code = `io.open(${JSON.stringify(p.marker)},'a'):write('ran')`;
      return `pob:\n    args: ${JSON.stringify(`-e ${code.replace(/ /g, '')}`)}\n    lua: { enabled: true }\n`;
    },
  },
];

/** A home with a cloned repository whose .mcprc sets `c`'s setting; nothing approved. */
function clone(c: Case): Place {
  const home = tempDir('mcphost-runs-').dir;
  const repo = path.join(home, 'src', 'cloned');
  mkdirSync(repo, { recursive: true });
  execFileSync('git', ['init', '-q', repo]);
  const place: Place = { home, repo, rc: path.join(repo, '.mcprc'), marker: path.join(home, 'RAN'), env: isolatedEnv(home) };
  writeFileSync(place.rc, `plugins:\n  ${c.section(place)}`);
  return place;
}

const publicName = (c: Case) => (c.tool.startsWith(`${c.plugin}_`) ? c.tool : `${c.plugin}_${c.tool}`);
const textOf = (result: unknown) => ((result as { content?: Array<{ text?: string }> }).content ?? []).map((b) => b.text ?? '').join('\n');

/** One way a user reaches the plugin; answers the message the user is shown. */
interface Path {
  name: string;
  /** Whether the path reports the setting and what to approve (init never reads the clone's file). */
  says?: false;
  run(c: Case, p: Place): Promise<string[]>;
}

const PATHS: Path[] = [
  {
    name: 'serve (the first call of the tool)',
    async run(c, p) {
      const host = await hostInProcess({ cwd: p.repo, env: p.env, plugins: [c.plugin] });
      try {
        const served = await (await host.connect()).callTool({ name: publicName(c), arguments: c.args });
        return [`${served.isError ? 'error: ' : ''}${textOf(served)}`];
      } finally {
        await host.close();
      }
    },
  },
  {
    name: 'call',
    async run(c, p) {
      const called = await callInProcess({ cwd: p.repo, env: p.env, plugin: c.plugin, tool: c.tool, args: c.args });
      return [called.error?.message ?? textOf(called.result)];
    },
  },
  {
    name: 'doctor',
    async run(c, p) {
      const doctor = await doctorReport({ cwd: p.repo, env: p.env as NodeJS.ProcessEnv, plugins: [c.plugin], writeLog: () => undefined });
      // The file's line and the plugin's both say it.
      return [doctor.trust?.hint ?? '', doctor.plugins[0].message];
    },
  },
  {
    name: 'connect --dry-run',
    async run(c, p) {
      // Its entry would name the file (which approves it), and its doctor check would run the setting.
      const connect = connectClient({
        client: 'cursor',
        plugins: [c.plugin],
        dryRun: true,
        cwd: p.repo,
        env: p.env as NodeJS.ProcessEnv,
        node: process.execPath,
        bin: BIN,
        writeLog: () => undefined,
      });
      return connect.then(
        (report) => report.doctor.map((d) => d.message),
        (error: Error) => [error.message],
      );
    },
  },
  {
    name: 'init (in a folder of the clone)',
    // Its doctor checks the file it writes, never the clone's: it has nothing to approve to say.
    says: false,
    async run(c, p) {
      const sub = path.join(p.repo, 'tools');
      mkdirSync(sub);
      const init = await initConfig({ cwd: sub, env: p.env as NodeJS.ProcessEnv, plugins: [c.plugin] });
      return init.checks.map((check) => check.message);
    },
  },
];

describe.each(CASES)('$setting in a cloned .mcprc that is not approved', (c) => {
  it.each(PATHS)('runs nothing on $name, and says what to approve', { timeout: 60_000 }, async (route) => {
    const p = clone(c);
    const said = await route.run(c, p);
    expect(existsSync(p.marker)).toBe(false);
    if (route.says === false) return;
    for (const line of said) {
      expect(line).toContain(c.setting);
      expect(line).toContain(`mcphost trust ${p.rc}`);
    }
  });

  it('is listed by `mcphost trust` under what the file may run, and runs once approved', { timeout: 60_000 }, async () => {
    const p = clone(c);
    const trusted = await manageTrust({ cwd: p.repo, env: p.env as NodeJS.ProcessEnv, action: 'approve' });
    expect(trusted.files.find((f) => f.file === p.rc)?.runs?.some((line) => line.startsWith(`${c.setting}: `))).toBe(true);
    await callInProcess({ cwd: p.repo, env: p.env, plugin: c.plugin, tool: c.tool, args: c.args });
    expect(existsSync(p.marker)).toBe(true);
  });
});

describe('what the rest of a plugin does meanwhile', () => {
  it("pob's XML tools work while its Lua settings wait; godot serves a doc folder while godotBinary waits", async () => {
    const home = tempDir('mcphost-runs-').dir;
    const marker = path.join(home, 'RAN');
    const script = path.join(home, 'run.sh');
    writeFileSync(script, `#!/bin/sh\necho ran >> ${JSON.stringify(marker)}\nexit 1\n`);
    chmodSync(script, 0o755);
    const docs = path.join(FIXTURES, 'godot/doc4');
    writeFileSync(
      path.join(home, '.mcprc'),
      `plugins:\n  pob:\n    cmd: ${script}\n    lua: { enabled: true }\n  godot:\n    godotBinary: ${script}\n    docDir: ${docs}\n`,
    );
    // The home folder's .mcprc counts as found (it is not the user's config folder).
    const env = isolatedEnv(home);
    const encoded = await callInProcess({
      cwd: home,
      env,
      plugin: 'pob',
      tool: 'encode',
      args: { xml: '<PathOfBuilding><Build/></PathOfBuilding>' },
    });
    expect(encoded.error).toBeUndefined();
    const found = await callInProcess({ cwd: home, env, plugin: 'godot', tool: 'search', args: { query: 'Node' } });
    expect(found.error).toBeUndefined();
    const config = await configReport({ cwd: home, env: env as NodeJS.ProcessEnv, plugins: ['pob', 'godot'], writeLog: () => undefined });
    expect(config.sources['plugins.pob.cmd']).toMatch(/^not applied: plugins\.pob\.cmd in .* waits for your approval/);
    expect(config.config.plugins).toMatchObject({ pob: { cmd: 'luajit' } });
    expect(existsSync(marker)).toBe(false);
  });

  it('what the user sets in the environment applies at once, even beside a file that is not approved', async () => {
    const home = tempDir('mcphost-runs-').dir;
    const marker = path.join(home, 'RAN');
    const script = path.join(home, 'luajit.sh');
    writeFileSync(script, `#!/bin/sh\necho ran >> ${JSON.stringify(marker)}\nexit 1\n`);
    chmodSync(script, 0o755);
    writeFileSync(path.join(home, '.mcprc'), `plugins:\n  pob:\n    cmd: /nonexistent/luajit\n    lua: { enabled: true }\n`);
    const env = isolatedEnv(home, { POB_CMD: script, POB_PATH: path.join(FIXTURES, 'pob/fake-pob') });
    const started = await callInProcess({ cwd: home, env, plugin: 'pob', tool: 'lua_start', args: {} });
    expect(started.error?.message ?? '').not.toContain('mcphost trust');
    expect(existsSync(marker)).toBe(true);
  });
});

describe('a third-party plugin that declares its setting with programPath()', () => {
  const entry = path.join(FIXTURES, 'runner-plugin.js');
  const installed: InstalledPackage[] = [
    { backendName: 'runner', packageName: 'mcphost-plugin-runner', version: '1.0.0', root: FIXTURES, entry, type: 'link' },
  ];

  it('gets the same protection, without checking anything itself', async () => {
    const home = tempDir('mcphost-runs-').dir;
    const repo = path.join(home, 'game');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', repo]);
    const marker = path.join(home, 'RAN');
    const script = path.join(repo, 'payload.sh');
    writeFileSync(script, `#!/bin/sh\necho ran >> ${JSON.stringify(marker)}\n`);
    chmodSync(script, 0o755);
    const rc = path.join(repo, '.mcprc');
    writeFileSync(rc, `plugins:\n  runner:\n    program: ./payload.sh\n`);
    const env = isolatedEnv(home) as NodeJS.ProcessEnv;
    const host = await hostInProcess({ cwd: repo, env, plugins: ['runner'], installed });
    try {
      const client = await host.connect();
      const ran = await client.callTool({ name: 'runner_run', arguments: {} });
      expect(textOf(ran)).toContain('no program configured');
    } finally {
      await host.close();
    }
    expect(existsSync(marker)).toBe(false);
    const listed = await manageTrust({ cwd: repo, env, action: 'approve', installed });
    expect(listed.files[0].runs).toContain('plugins.runner.program: ./payload.sh (a program)');
    const host2 = await hostInProcess({ cwd: repo, env, plugins: ['runner'], installed });
    try {
      const ran = await (await host2.connect()).callTool({ name: 'runner_run', arguments: {} });
      expect(textOf(ran)).toContain('ran');
    } finally {
      await host2.close();
    }
    expect(existsSync(marker)).toBe(true);
  });
});
