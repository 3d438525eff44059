// `mcphost call` on a mounted stdio server prints the answer before it stops the server (issue 35,
// item 4): stopping takes the server's grace (stdin closed, then SIGTERM, then SIGKILL), which the
// person waiting for the answer need not. The fixture server ignores both stdin EOF and SIGTERM, so
// when the answer arrives before the stop, the server is still alive then; and gone after the exit.
import { execa } from 'execa';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { BIN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';
import { alive, fixtureEntry, journalLines, writeConfig } from '../upstream/helpers.js';

describe('mcphost call on a mounted server', () => {
  it('prints the answer while the server is still being stopped, and leaves no server behind', async () => {
    const tmp = tempDir();
    const journal = path.join(tmp.dir, 'journal.log');
    writeConfig(tmp.dir, { servers: { fx: fixtureEntry(journal, {}, { FIXTURE_STUBBORN: '1' }) } });
    const child = execa(process.execPath, [BIN, 'call', 'fx', 'echo', '--text', 'hi'], {
      cwd: tmp.dir,
      env: isolatedEnv(tmp.dir),
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    const serverAtAnswer = new Promise<boolean>((resolve) => {
      child.stdout!.once('data', () => {
        const started = journalLines(journal).find((l) => l.startsWith('start '));
        resolve(started !== undefined && alive(Number(started.split(' ')[1])));
      });
    });
    const done = await child;
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stdout).toBe('echo: hi');
    expect(await serverAtAnswer).toBe(true);
    const pid = Number(
      journalLines(journal)
        .find((l) => l.startsWith('start '))!
        .split(' ')[1],
    );
    expect(alive(pid)).toBe(false);
    expect(journalLines(journal)).toContain(`sigterm ${pid}`);
  }, 60_000);
});
