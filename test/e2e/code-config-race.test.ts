// Issue 36, item 4: an approved .mcprc.js was hashed from one read and imported from another, so a
// file swapped in between ran although it was never approved (28 of 57 runs judged approved). Here
// a real child process renames one of two files over the config every 2 ms — A, approved, and B,
// never approved, each leaving its letter in a log when it runs — while the real binary reads the
// config again and again: B must never run, and both outcomes (A approved and run, B refused) must
// have happened, or the race was not run at all.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { approve } from '../helpers/trust.js';

const SWAPPER = `
const { copyFileSync, renameSync } = require('node:fs');
const [rc, a, b, tmpDir] = process.argv.slice(1);
const pause = new Int32Array(new SharedArrayBuffer(4));
for (let i = 0; ; i++) {
  const tmp = tmpDir + '/swap' + (i % 2);
  copyFileSync(i % 2 ? b : a, tmp);
  renameSync(tmp, rc);
  Atomics.wait(pause, 0, 0, 2);
}
`;

describe('an approved .mcprc.js swapped for another while mcphost reads it', () => {
  it('never runs the file that was not approved', { timeout: 240_000 }, async () => {
    const home = tempDir('mcphost-race-');
    const repo = path.join(home.dir, 'src', 'game');
    mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    const log = path.join(home.dir, 'ran.log');
    const body = (letter: string) =>
      `require('node:fs').appendFileSync(${JSON.stringify(log)}, '${letter}\\n');\nmodule.exports = { plugins: { pob: {} } };\n`;
    const rc = path.join(repo, '.mcprc.js');
    const a = home.write('a.js', body('A'));
    const b = home.write('b.js', body('B'));
    writeFileSync(rc, readFileSync(a));
    const env = isolatedEnv(home.dir);
    await approve(repo, { env });
    appendFileSync(log, '');

    const swapper = execa(process.execPath, ['-e', SWAPPER, rc, a, b, home.dir], { reject: false });
    const trusted: boolean[] = [];
    try {
      const one = async () => {
        const r = await runCli(['config', '--json'], { cwd: repo, env, timeout: 60_000 });
        trusted.push(JSON.parse(r.stdout).trust?.trusted === true);
      };
      for (let i = 0; i < 20; i++) await Promise.all([one(), one()]);
    } finally {
      swapper.kill();
      await swapper;
    }
    const ran = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    expect(ran.filter((l) => l === 'B')).toEqual([]);
    // Both sides of the race were seen: runs that read A (approved, and it ran), runs that read B (refused).
    expect(trusted.filter(Boolean).length).toBeGreaterThan(0);
    expect(trusted.filter((t) => !t).length).toBeGreaterThan(0);
    expect(ran.filter((l) => l === 'A')).toHaveLength(trusted.filter(Boolean).length);
    // Nothing of the private copies is left beside the config.
    expect(readdirSync(repo).sort()).toEqual(['.git', '.mcprc.js']);
  });
});
