// Issue 24 item 10, through the real binary: a mounted server's tool called without a required
// argument, or with one its schema refuses, is a usage error (exit 1) as the README's table says,
// not a tool failure (exit 5); the message names the argument.
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { trustCli } from '../helpers/cli.js';
import { FIXTURE_SERVER } from '../upstream/helpers.js';

describe("a mounted server's tool with a bad argument", () => {
  const home = tempDir('mcphost-mounted-args-');
  home.write('.mcprc.json', JSON.stringify({ servers: { fx: { command: process.execPath, args: [FIXTURE_SERVER] } } }));
  const env = isolatedEnv(home.dir);
  const call = (args: string[]) => runCli(['call', 'fx', 'echo', ...args], { cwd: home.dir, env, timeout: 60_000 });

  it('a missing required argument exits 1 naming it', async () => {
    await trustCli(home.dir, env);
    const r = await call([]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/text/);
  });

  it('a value the server refuses (MCP error -32602) exits 1', async () => {
    const r = await call(['--args', '{"text": 5}']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/text/);
  });

  it('a good call still exits 0', async () => {
    const r = await call(['--text', 'hi']);
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 0, stdout: expect.stringContaining('echo: hi') });
  });
});
