// Issue 24 item 7, through the real binary: a backend that cannot start is said once — the error
// line of the command — not a second time as a log line before it.
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

describe('a backend that fails to start, in a one-shot call', () => {
  it.each([
    ['imhex', ['call', 'imhex', 'read_bytes', '--offset', '0', '--count', '4'], /imhex/],
    ['godot', ['call', 'godot', 'search', '--query', 'x'], /Godot doc folder .* does not exist/],
  ])('%s: exit 4 and its error printed once', async (_name, args, says) => {
    const home = tempDir('mcphost-failed-start-');
    const r = await runCli(args, { cwd: home.dir, env: isolatedEnv(home.dir, { GODOT_DOC_DIR: undefined }), timeout: 60_000 });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(says);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Error: /);
  });
});
