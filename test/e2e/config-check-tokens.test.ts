// `mcphost config --check` and `mcphost tools --tokens` through the real binary: exit codes from the
// README's table, and token counts in both tool modes.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('config --check', () => {
  const tmp = tempDir();
  writeFileSync(path.join(tmp.dir, 'x.bin'), 'abc');

  it('says a valid file is valid (exit 0) and starts nothing', async () => {
    const file = tmp.write('ok.yaml', 'plugins:\n  imhex: { file: x.bin }\nservers:\n  nope: { command: /no/such/command }\n');
    const r = await runCli(['config', '--check', '-c', file], { cwd: tmp.dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${file}: valid (imhex, nope)`);
  });

  it('names the file and key of an invalid value (exit 3)', async () => {
    const file = tmp.write('bad.yaml', 'plugins:\n  imhex: { file: 42 }\ntools: { mode: sideways }\n');
    const r = await runCli(['config', '--check', '-c', file], { cwd: tmp.dir });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain('tools.mode');
  });

  it('reports a plugin that does not exist (exit 2), with --json too', async () => {
    const file = tmp.write('missing.yaml', 'plugins:\n  nosuch: {}\n');
    const r = await runCli(['config', '--check', '-c', file, '--json'], { cwd: tmp.dir });
    expect(r.exitCode).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(out.ok).toBe(false);
    expect(out.errors[0]).toMatchObject({ plugin: 'nosuch', stage: 'load' });
  });
});

describe('tools --tokens', () => {
  it("prints each tool's cost and the whole list's in both modes", async () => {
    const tmp = tempDir();
    writeFileSync(path.join(tmp.dir, 'x.bin'), 'abc');
    const file = tmp.write('c.yaml', 'plugins:\n  imhex: { file: x.bin }\ntools: { pinned: [imhex_hexdump] }\n');
    const r = await runCli(['tools', '--tokens', '--json', '-c', file], { cwd: tmp.dir, timeout: 30_000 });
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.tokenizer).toMatch(/o200k_base/);
    const names = report.tools.map((t: { name: string }) => t.name);
    expect(names).toContain('imhex_read_bytes');
    const sum = report.tools.reduce((n: number, t: { tokens: number }) => n + t.tokens, 0);
    expect(report.flat.tools).toBe(names.length);
    // The list's JSON costs about its tools' sum (a few tokens of wrapping and commas besides).
    expect(Math.abs(report.flat.tokens - sum)).toBeLessThan(names.length * 2 + 10);
    expect(report.discover.tools).toBe(4);
    expect(report.tools.find((t: { name: string }) => t.name === 'imhex_hexdump').pinned).toBe(true);
    expect(report.discover.tokens).toBeLessThan(report.flat.tokens);
    const human = await runCli(['tools', '--tokens', '-c', file], { cwd: tmp.dir, timeout: 30_000 });
    expect(human.stdout).toMatch(/^flat: \d+ tokens, \d+ bytes \(\d+ tools\)$/m);
    expect(human.stdout).toMatch(/^discover: \d+ tokens, \d+ bytes \(3 meta-tools \+ 1 pinned\)$/m);
  });
});
