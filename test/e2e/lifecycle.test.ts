import { Client } from '@modelcontextprotocol/client';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, type ExpectStatic } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { FIXTURES } from '../helpers/paths.js';
import { RecordingStdioTransport } from '../helpers/recording-stdio.js';
import { alive } from '../helpers/process.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
const env = isolatedEnv(t.dir);
const KEEPER = path.join(FIXTURES, 'child-keeper/index.js');
const SILENT = path.join(FIXTURES, 'child-keeper/silent-server.js');

let n = 0;
/** Serves a backend that owns a real child process (started through execa, as pob's luajit is), and starts it with one call. */
async function serving(expect: ExpectStatic, settings = '') {
  const pidFile = path.join(t.dir, `child-${++n}.pid`);
  const journal = path.join(t.dir, `journal-${n}.log`);
  const config = t.write(
    `rc-${n}.yaml`,
    `plugins:\n  keeper:\n    module: ${KEEPER}\n    childPidFile: ${pidFile}\n    journal: ${journal}\n${settings}`,
  );
  const transport = new RecordingStdioTransport(['--config', config], { cwd: t.dir, env });
  const client = new Client({ name: 'lifecycle', version: '1' });
  await client.connect(transport);
  expect((await client.callTool({ name: 'keeper_ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);
  const child = Number(readFileSync(pidFile, 'utf8'));
  expect(alive(child)).toBe(true);
  const exited = transport.child!.then((r) => r);
  return { transport, client, child, exited, journal: () => readFileSync(journal, 'utf8').trim().split('\n') };
}

describe('shutdown', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it.concurrent(`stops every backend on ${signal} and exits 0, leaving no child process behind`, async ({ expect }) => {
      const s = await serving(expect);
      s.transport.child!.kill(signal);
      const result = await s.exited;
      expect({ exitCode: result.exitCode, signal: result.signal }).toEqual({ exitCode: 0, signal: undefined });
      expect(s.journal()).toEqual(['start', 'stop']);
      await expect.poll(() => alive(s.child), { timeout: 2000 }).toBe(false);
    });
  }

  it.concurrent(
    'exits 0 on SIGTERM while a mounted stdio server is still starting, and leaves that server no orphan',
    async ({ expect }) => {
      const pidFile = path.join(t.dir, 'silent.pid');
      const config = t.write(
        'silent.yaml',
        `servers:\n  silent:\n    command: ${process.execPath}\n    args: [${SILENT}, ${pidFile}]\ntimeouts:\n  shutdownMs: 500\n`,
      );
      const transport = new RecordingStdioTransport(['--config', config], { cwd: t.dir, env });
      await transport.start();
      await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', { timeout: 15_000 }).toBe(true);
      const server = Number(readFileSync(pidFile, 'utf8'));
      expect(alive(server)).toBe(true);
      transport.child!.kill('SIGTERM');
      const result = await transport.child!;
      expect({ exitCode: result.exitCode, signal: result.signal }).toEqual({ exitCode: 0, signal: undefined });
      await expect.poll(() => alive(server), { timeout: 2000 }).toBe(false);
    },
  );
});
