// Issue 35, item 10, what a new user meets in the first hour: per-tool help that fits 80 columns and
// wraps between words (the real binary on a pseudo-terminal, util-linux `script`), a deprecated
// spelling not listed twice, "did you mean" for a mistyped command and for enum values, `connect`
// saying when the client would not find `mcphost` on PATH, and an empty folder pointing to `init`.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { haveScript, runOnTty, visible } from '../helpers/tty.js';

const t = tempDir();
const env = isolatedEnv(t.dir, { NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, TERM: 'xterm-256color' });
const words = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');

describe('call <plugin> <tool> --help on a terminal of 80 columns', () => {
  it.skipIf(!haveScript)('fits, wraps between words, and lists --max-results once', async () => {
    const described = JSON.parse((await runCli(['tools', '--plugins', 'imhex', '--json'], { cwd: t.dir, env })).stdout) as Array<{
      name: string;
      description: string;
    }>;
    const search = described.find((d) => d.name === 'imhex_search')!;
    const r = await runOnTty(['call', 'imhex', 'search', '--help'], { cwd: t.dir, env, columns: 80 });
    expect(r.exitCode).toBe(0);
    const shown = visible(r.stdout).trimEnd();
    for (const line of shown.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    // Joined back with single spaces the description is whole: a break inside a word would split one.
    expect(words(shown)).toContain(words(search.description));
    expect(words(shown)).toContain(words('--mode, --file, --[no-]writable, --[no-]allow-grow'));
    const rows = shown.split('\n').filter((l) => /^ {2}--max-results /.test(l));
    expect(rows).toHaveLength(1);
  });
});

describe('did you mean', () => {
  it('suggests servers:import for servers:imprt, before the commands it merely starts like', async () => {
    const r = await runCli(['servers:imprt'], { cwd: t.dir, env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/did you mean mcphost servers:import\b/);
  });

  it('suggests the enum value: --transport htp, connect curosr', async () => {
    const transport = await runCli(['serve', '--plugins', 'pob', '--transport', 'htp'], { cwd: t.dir, env });
    expect(transport.exitCode).toBe(1);
    expect(transport.stderr).toContain('Expected --transport=htp to be one of: stdio, http; did you mean http?');
    const client = await runCli(['connect', 'curosr', '--plugins', 'pob'], { cwd: t.dir, env });
    expect(client.exitCode).toBe(1);
    expect(client.stderr).toContain('; did you mean cursor?');
  });
});

describe('connect', () => {
  it('warns when the client would not find mcphost on PATH, and not when it would', async () => {
    const project = tempDir('mcphost-project-').dir;
    const bin = path.join(project, 'bin');
    mkdirSync(bin);
    const without = await runCli(['connect', 'cursor', '--plugins', 'pob', '--dry-run'], {
      cwd: project,
      env: { ...env, PATH: '/usr/bin:/bin' },
    });
    expect(without.exitCode, without.stderr).toBe(0);
    expect(without.stderr).toContain('warning: cursor starts `mcphost` from PATH, and there is none on this PATH');
    writeFileSync(path.join(bin, 'mcphost'), '#!/bin/sh\n');
    chmodSync(path.join(bin, 'mcphost'), 0o755);
    const withIt = await runCli(['connect', 'cursor', '--plugins', 'pob', '--dry-run'], {
      cwd: project,
      env: { ...env, PATH: `${bin}:/usr/bin:/bin` },
    });
    expect(withIt.exitCode, withIt.stderr).toBe(0);
    expect(withIt.stderr).not.toContain('from PATH');
  });
});

describe('an empty folder', () => {
  it('points to mcphost init', async () => {
    const empty = tempDir('mcphost-empty-').dir;
    const r = await runCli(['tools'], { cwd: empty, env: isolatedEnv(empty) });
    expect(r.stderr).toContain('`mcphost init` writes a .mcprc here');
    const doctor = await runCli(['doctor'], { cwd: empty, env: isolatedEnv(empty) });
    expect(doctor.stdout).toContain('(`mcphost init` writes one here)');
  });
});
