// The walk of `mcphost call imhex read_bytes --offset 256` (scripts/call-walk.js: every project module
// the call passes through between the call command's run() and the tool's handler, counted from V8
// breakpoints) stays within the 60 modules issue 37 set, and a local-file call loads no MCP package.
// A count of modules, not a time: the same code walks the same modules on any machine. It costs
// ~20 s of CPU (a breakpoint on every line of dist/), hence one case.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir('mcphost-walk-test-');

describe('the walk of a local-file imhex call', () => {
  it('visits at most 60 modules and loads no @modelcontextprotocol package', { timeout: 180_000 }, async () => {
    const file = t.write('firmware.bin', 'MZ'.padEnd(4096, '\u0001'));
    const { stderr } = await promisify(execFile)(
      process.execPath,
      [path.join(REPO, 'scripts/call-walk.js'), 'imhex', 'read_bytes', '--offset', '256'],
      { cwd: t.dir, env: isolatedEnv(t.dir, { IMHEX_FILE: file }), timeout: 170_000 },
    );
    const walk = JSON.parse(stderr.trim().split('\n').at(-1)!) as {
      modules: number;
      hostModules: number;
      pluginModules: number;
      reachedHandler: boolean;
      loaded: string[];
    };
    expect(walk.reachedHandler).toBe(true);
    expect(walk.pluginModules).toBeGreaterThan(0); // the plugin's own modules are counted too
    expect(walk.modules).toBe(walk.hostModules + walk.pluginModules);
    expect(walk.modules).toBeLessThanOrEqual(60);
    expect(walk.loaded.filter((p) => p.startsWith('@modelcontextprotocol/') || p === 'execa')).toEqual([]);
  });
});
