// `mcphost init` as a new user runs it (issue 24, item 8): the file it writes is approved as the
// user's own, its plugins are checked as `doctor` checks them, and with no --plugins only the
// built-ins that work here are kept, so the `doctor` it suggests next passes; a plugin that is named
// but not set up is written, and init names what it needs.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, NO_DEFAULT_PORTS, runCli } from '../helpers/cli.js';
import { SHARED_DATA } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const sections = (file: string) => [...readFileSync(file, 'utf8').matchAll(/^ {2}(\w+):$/gm)].map((m) => m[1]);

describe('mcphost init', () => {
  it('with no --plugins keeps the built-ins that work here, says why the others are left out, and doctor then passes', async () => {
    const t = tempDir();
    // What answers at the unreal and exile default ports is this machine's business, not the test's.
    const env = isolatedEnv(t.dir, { GODOT_DOC_DIR: path.join(SHARED_DATA, 'godot-docs'), ...NO_DEFAULT_PORTS });
    const init = await runCli(['init'], { cwd: t.dir, env, timeout: 60_000 });
    expect(init.exitCode).toBe(0);
    const file = path.join(t.dir, '.mcprc');
    expect(sections(file).sort()).toEqual(['godot', 'pob']);
    expect(init.stdout).toMatch(/^ready {2}godot: /m);
    expect(init.stdout).toMatch(/^left out imhex, not set up here: .*plugins\.imhex\.file/m);
    expect(init.stdout).toMatch(/^next: `mcphost serve`/m);
    const doctor = await runCli(['doctor'], { cwd: t.dir, env, timeout: 60_000 });
    expect(doctor.exitCode).toBe(0);
    expect(doctor.stdout).not.toContain('not trusted');
  });

  it('writes a named plugin that is not set up, names what it needs, and does not send the user to a doctor that passes', async () => {
    const t = tempDir();
    const env = isolatedEnv(t.dir, NO_DEFAULT_PORTS);
    const init = await runCli(['init', '--plugins', 'imhex,pob'], { cwd: t.dir, env, timeout: 60_000 });
    expect(init.exitCode).toBe(0);
    expect(sections(path.join(t.dir, '.mcprc')).sort()).toEqual(['imhex', 'pob']);
    expect(init.stdout).toMatch(/^needs {2}imhex: .*set plugins\.imhex\.file/m);
    expect(init.stdout).toMatch(/^next: set what is named above, then `mcphost doctor`/m);
    // Once the file is set, the doctor it suggested passes.
    const bin = path.join(t.dir, 'firmware.bin');
    t.write('firmware.bin', 'ABCD');
    const doctor = await runCli(['doctor'], { cwd: t.dir, env: { ...env, IMHEX_FILE: bin }, timeout: 60_000 });
    expect(doctor.exitCode).toBe(0);
  });
});
