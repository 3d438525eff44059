import { Client } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { KITCHEN } from '../helpers/paths.js';
import { RecordingStdioTransport } from '../helpers/recording-stdio.js';
import { alive } from '../helpers/process.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
const env = isolatedEnv(t.dir);

let n = 0;
/** Serves kitchen with a backend that owns a child process, and starts it with one call. */
async function serving(settings = '') {
  const pidFile = path.join(t.dir, `child-${++n}.pid`);
  const journal = path.join(t.dir, `journal-${n}.log`);
  const config = t.write(
    `rc-${n}.yaml`,
    `plugins:\n  kitchen:\n    module: ${KITCHEN}\n    childPidFile: ${pidFile}\n    journal: ${journal}\n${settings}`,
  );
  const transport = new RecordingStdioTransport(['--config', config], { cwd: t.dir, env });
  const client = new Client({ name: 'lifecycle', version: '1' });
  await client.connect(transport);
  await client.callTool({ name: 'kitchen_add', arguments: { a: 1, b: 1 } });
  const child = Number(readFileSync(pidFile, 'utf8'));
  expect(alive(child)).toBe(true);
  const exited = transport.child!.then((r) => r);
  return { transport, client, child, exited, journal: () => readFileSync(journal, 'utf8').trim().split('\n') };
}

describe('shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops every backend on ${signal} and leaves no child process behind`, async () => {
      const s = await serving();
      s.transport.child!.kill(signal);
      const result = await s.exited;
      expect(result.exitCode).toBe(0);
      expect(s.journal()).toEqual(['start', 'stop']);
      await expect.poll(() => alive(s.child), { timeout: 2000 }).toBe(false);
    });
  }

  it('stops when the client closes stdin', async () => {
    const s = await serving();
    s.transport.child!.stdin!.end();
    const result = await s.exited;
    expect(result.exitCode).toBe(0);
    expect(s.journal()).toEqual(['start', 'stop']);
    await expect.poll(() => alive(s.child), { timeout: 2000 }).toBe(false);
  });

  it('exits within the shutdown deadline even when a backend hangs in stop()', async () => {
    const s = await serving('    hangOnStop: true\ntimeouts:\n  shutdownMs: 500\n');
    s.transport.child!.kill('SIGTERM');
    const result = await Promise.race([s.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 5000))]);
    expect(result).not.toBe('hung');
    expect(s.transport.stderr).toContain('shutdown took longer than 500 ms');
  });
});
