// The built-in plugins' long operations as tasks (SEP-2663), followed by the official SDK client
// that declares the tasks extension (2026-07-28): a search of a 1 GiB file (imhex) and a build load
// (pob), each polled with tasks/get to its result and cancelled half-way with tasks/cancel — run by
// the plugin in-process, and again through a second mcphost (`bin/run.js serve` over stdio) that
// the first mounts from .mcprc `servers` (the client talks to the first).
//
// The 1 GiB file is sparse: `truncate` to 1 GiB, then a few real bytes written at known offsets
// (and 64 KiB of 0xC0 at its start, which the search samples to plan its scan). PoB is the fake
// PoB of test/fixtures/pob, whose `sleep:<ms>` build burns CPU in luajit for that long, as a real
// load does; the real PoB runs only in test/plugins/pob/real-pob.test.ts (POB_PATH).
import { closeSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { openHost } from '../../src/app/open.js';
import { silentLogger } from '../../src/kit/silent-logger.js';
import { serveOnHttp } from '../../src/server/http.js';
import { BIN } from '../helpers/paths.js';
import { alive } from '../helpers/process.js';
import { FOLLOWS_TASKS, TaskFollower, finished, type TaskState } from '../helpers/tasks.js';
import { tempDir } from '../helpers/tmp.js';
import { writeConfig } from '../upstream/helpers.js';
import { FAKE_POB, fakeBuild, pobEnv } from './pob/helpers.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const MARK = Buffer.from('c0ffee5a17', 'hex');
// The last one ends at the file's last byte.
const MARKS = [100 * MiB + 7, 512 * MiB + 1, 777 * MiB + 4093, GiB - MARK.length];
const tmp = tempDir('mcphost-long-tasks-');

function sparseGiB(file: string): void {
  const fd = openSync(file, 'w');
  try {
    ftruncateSync(fd, GiB);
    writeSync(fd, Buffer.alloc(64 * 1024, 0xc0), 0, 64 * 1024, 0);
    for (const at of MARKS) writeSync(fd, MARK, 0, MARK.length, at);
  } finally {
    closeSync(fd);
  }
}

interface Target {
  client: Client;
  /** Where the front mcphost serves HTTP: another client connects there. */
  url: string;
  tasks: TaskFollower;
  /** The tool's published name for `name` (a mounted server's carry its prefix). */
  tool(name: string): string;
  close(): Promise<void>;
}

/**
 * mcphost serving HTTP on 127.0.0.1 (in-process: the path of `serve --transport http`) with a
 * 2026-era client that follows tasks: `plugin` itself (settings from `dir`), or a second mcphost
 * (`bin/run.js serve` over stdio, in `dir`) that serves it, mounted from .mcprc `servers`.
 */
async function open(how: 'built-in' | 'mounted', plugin: string, dir: string, env: Record<string, string | undefined>): Promise<Target> {
  let cwd = dir;
  if (how === 'mounted') {
    cwd = path.join(dir, 'front');
    mkdirSync(cwd, { recursive: true });
    const childEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
    writeConfig(cwd, {
      servers: { up: { command: process.execPath, args: [BIN, 'serve', '--plugins', plugin], cwd: dir, env: childEnv } },
    });
  }
  const { registry } = await openHost({
    cwd,
    env: (how === 'mounted' ? isolatedEnv(cwd) : env) as NodeJS.ProcessEnv,
    plugins: how === 'mounted' ? undefined : [plugin],
    writeLog: () => undefined,
    serving: true,
  });
  const serving = await serveOnHttp(
    registry,
    { name: 'mcphost', version: '0.0.0-test' },
    { host: '127.0.0.1', port: 0, allowedOrigins: [], allowedHosts: [], maxBodyBytes: 4 << 20, sessionIdleMs: 60_000, maxSessions: 100 },
    silentLogger,
  );
  const client = new Client(
    { name: 'mcphost-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: FOLLOWS_TASKS },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
  return {
    client,
    url: serving.url,
    tasks: new TaskFollower(client),
    tool: (name) => (how === 'mounted' ? `up_${name}` : name),
    async close() {
      await client.close().catch(() => undefined);
      await serving.close();
      await registry.close();
    },
  };
}

describe.each(['built-in', 'mounted'] as const)('as tasks, %s', (how) => {
  describe('a 1 GiB imhex search', () => {
    const dir = path.join(tmp.dir, `imhex-${how}`);
    let t: Target;
    beforeAll(async () => {
      mkdirSync(dir, { recursive: true });
      sparseGiB(path.join(dir, 'big.bin'));
      // Two search threads reading 4 KiB at a time; the tool may take 5 minutes (a loaded machine).
      writeConfig(dir, {
        timeouts: { toolMs: 300_000 },
        plugins: { imhex: { file: 'big.bin', searchThreads: 2, searchChunkBytes: 4096 } },
      });
      t = await open(how, 'imhex', dir, isolatedEnv(dir));
    }, 60_000);
    afterAll(() => t?.close());

    it('is cancelled half-way: the task says cancelled, and the next search is not held up by it', async () => {
      // Anchored on a zero byte (the plan's sample of the file's start says zeros are rare), each
      // byte of the sparse gigabyte is a candidate checked one by one: minutes of CPU (about
      // 150 ns a byte here), unless the search is stopped.
      const started = Date.now();
      const call = await t.tasks.call(t.tool('imhex_search'), { pattern: '00 ?? C0' });
      expect(call.task, 'the search became a task').toBeDefined();
      const seen: TaskState[] = [];
      const running = await t.tasks.poll(call.task!.taskId, (s) => finished(s) || /^searched [1-9]/.test(s.statusMessage ?? ''), seen);
      expect(running.status).toBe('working');
      const firstPart = Date.now() - started;
      const [done, total] = running.statusMessage!.match(/\d+/g)!.map(Number);
      expect(total).toBe(GiB - 2);
      expect(done).toBeLessThan(total);
      await t.tasks.cancel(running.taskId);
      expect((await t.tasks.get(running.taskId)).status).toBe('cancelled');

      // The same search threads serve the next search: had the cancelled scan gone on, this one
      // would wait behind it, for about total/done times as long as its first part took.
      const next = Date.now();
      const following = await t.tasks.call(t.tool('imhex_search'), { pattern: 'C0 FF EE 5A 17' });
      const answer = following.task ? (await t.tasks.poll(following.task.taskId, finished)).result : following.result;
      expect(answer?.structuredContent).toEqual({ offsets: MARKS });
      expect(Date.now() - next).toBeLessThan(((firstPart * total) / done) * 0.5);
      // Still cancelled (a later end of the scan does not overwrite it).
      expect((await t.tasks.get(running.taskId)).status).toBe('cancelled');
    }, 120_000);

    it("does not hold up another client: a second connection's reads are answered while the search runs", async () => {
      const call = await t.tasks.call(t.tool('imhex_search'), { pattern: '00 ?? C0' });
      expect(call.task, 'the search became a task').toBeDefined();
      const other = new Client({ name: 'mcphost-test-2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await other.connect(new StreamableHTTPClientTransport(new URL(t.url)));
      try {
        // Minutes of scanning are under way (the test above times them); each read must come back
        // while they go on, not after.
        for (const at of MARKS) {
          const started = Date.now();
          const read = await other.callTool({ name: t.tool('imhex_read_bytes'), arguments: { offset: at, count: MARK.length } });
          expect(read.isError).toBeFalsy();
          expect((read.structuredContent as { hex_data: string }).hex_data).toBe(MARK.toString('hex'));
          expect(Date.now() - started).toBeLessThan(10_000);
        }
        expect((await t.tasks.get(call.task!.taskId)).status, 'the search was still running').toBe('working');
      } finally {
        await other.close();
        await t.tasks.cancel(call.task!.taskId);
      }
      expect((await t.tasks.get(call.task!.taskId)).status).toBe('cancelled');
    }, 120_000);

    it('is polled to its result: the offsets of every mark, with progress on the way', async () => {
      // Anchored on the zero byte (the sample says it is rare), every byte of the sparse gigabyte
      // stops the scan's memchr: seconds of CPU, far past the 250 ms after which a call becomes a
      // task, on a fast machine too. It matches where a mark (C0 …) follows a zero byte.
      const call = await t.tasks.call(t.tool('imhex_search'), { pattern: '00 C0' });
      expect(call.task, 'the search became a task').toBeDefined();
      expect(call.task!.status).toBe('working');
      expect(call.task!.ttlMs).toBeGreaterThan(0);
      const seen: TaskState[] = [];
      const end = await t.tasks.poll(call.task!.taskId, finished, seen);
      expect(end.status).toBe('completed');
      expect(end.result?.structuredContent).toEqual({ offsets: MARKS.map((at) => at - 1) });
      expect(end.result?.isError).toBeFalsy();
      // While it ran, its status said how far it got.
      const said = seen.filter((x) => x.status === 'working' && x.statusMessage).map((x) => x.statusMessage);
      expect(said.length).toBeGreaterThan(0);
      for (const message of said) expect(message).toMatch(/^searched \d+ of 1073741823 bytes$/);
      // A finished task stays readable.
      expect((await t.tasks.get(call.task!.taskId)).status).toBe('completed');
    }, 120_000);
  });

  describe('a PoB build load', () => {
    const dir = path.join(tmp.dir, `pob-${how}`);
    let t: Target;
    beforeAll(async () => {
      mkdirSync(dir, { recursive: true });
      t = await open(how, 'pob', dir, pobEnv(dir, { POB_LUA_ENABLED: '1', POB_PATH: FAKE_POB, POB_WORKERS: '1' }));
    }, 60_000);
    afterAll(() => t?.close());

    it('is polled to its result: the build info and its build_id, with the stage as status', async () => {
      const call = await t.tasks.call(t.tool('pob_lua_load_build'), { build_xml: fakeBuild({ level: 77, fake: 'sleep:1500' }) });
      expect(call.task, 'the load became a task').toBeDefined();
      const seen: TaskState[] = [];
      const end = await t.tasks.poll(call.task!.taskId, finished, seen);
      expect(end.status).toBe('completed');
      expect(end.result?.structuredContent).toMatchObject({ level: 77, build_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(seen.filter((s) => s.status === 'working').map((s) => s.statusMessage)).toContain('PoB is loading and calculating the build');
    }, 60_000);

    it('is cancelled half-way: PoB stops (its process is gone) and the one worker serves the next load', async () => {
      const started = (await t.client.callTool({ name: t.tool('pob_lua_start'), arguments: {} })).structuredContent as {
        workers: Array<{ pid: number }>;
      };
      const pid = started.workers[0].pid;
      expect(alive(pid)).toBe(true);
      // Ten minutes of luajit CPU unless it is stopped.
      const call = await t.tasks.call(t.tool('pob_lua_load_build'), { build_xml: fakeBuild({ fake: 'sleep:600000' }) });
      expect(call.task, 'the load became a task').toBeDefined();
      expect((await t.tasks.get(call.task!.taskId)).status).toBe('working');
      await t.tasks.cancel(call.task!.taskId);
      expect((await t.tasks.get(call.task!.taskId)).status).toBe('cancelled');
      await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);

      const next = await t.tasks.call(t.tool('pob_lua_load_build'), { build_xml: fakeBuild({ level: 12 }) });
      const answer = next.task ? (await t.tasks.poll(next.task.taskId, finished)).result : next.result;
      expect(answer?.structuredContent).toMatchObject({ level: 12 });
    }, 60_000);
  });
});
