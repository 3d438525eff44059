// mode imhex-mcp beyond reading: the file map computed here from read_data (equal to the local
// file's map of the same bytes), and one stock ImHex served to several clients, each reading the
// data source it chose. ImHex is the replica read from ImHex's source (test/fixtures/imhex/
// imhex-replica.js), reached through the replica of `imhex --mcp` as a real child process.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startImHexReplica } from '../../fixtures/imhex/imhex-replica.js';
import { isolatedEnv } from '../../helpers/cli.ts';
import { hostInProcess } from '../../helpers/in-process.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { naiveSearch, seededBytes, writeImHexConfig } from './helpers.ts';
import { bridgeCommand } from './stock-helpers.ts';

const tmp = tempDir('imhex-stock-map-');
const PIECE = 4096;
const KIB = 1024;
// Regions of each kind, sized so that blocks and pieces do not line up.
const A = Buffer.concat([
  Buffer.alloc(24 * KIB),
  Buffer.alloc(20 * KIB, 0xff),
  Buffer.from('hello, map. '.repeat(1500)),
  seededBytes(30 * KIB + 13, 4),
]);
const B = seededBytes(9 * KIB + 5, 77);
A.set([0xde, 0xad, 0xbe, 0xef], PIECE - 2); // across a piece boundary
B.set([0xde, 0xad, 0xbe, 0xef], 100);
const fileA = tmp.write('a.bin', '');
const fileB = tmp.write('b.bin', '');
writeFileSync(fileA, A);
writeFileSync(fileB, B);

type Replica = Awaited<ReturnType<typeof startImHexReplica>>;
type Host = Awaited<ReturnType<typeof hostInProcess>>;

function dirFor(name: string, section: Record<string, unknown>): string {
  const dir = path.join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeImHexConfig(dir, section);
  return dir;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name: `imhex_${name}`, arguments: args });
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  return r.structuredContent as Record<string, unknown>;
}

describe('imhex-mcp: analysis computed from read_data, and one ImHex for many clients', () => {
  let imhex: Replica;
  let stock: Host;
  let local: Host;
  beforeAll(async () => {
    imhex = await startImHexReplica({ files: [fileA, fileB], quietMs: 1 });
    const dir = dirFor('stock', { mode: 'imhex-mcp', mcpPieceBytes: PIECE, requestTimeoutMs: 5_000 });
    stock = await hostInProcess({ cwd: dir, plugins: ['imhex'], env: isolatedEnv(dir, { IMHEX_MCP_COMMAND: bridgeCommand(imhex.port) }) });
    const localDir = dirFor('local', { mode: 'file', file: fileA });
    local = await hostInProcess({ cwd: localDir, plugins: ['imhex'], env: isolatedEnv(localDir) });
  });
  afterAll(async () => {
    await stock?.close();
    await local?.close();
    await imhex?.close();
  });

  it('maps ImHex’s data as the local file mode maps the same file, reading pieces of at most mcpPieceBytes', async () => {
    const viaImHex = await stock.connect();
    const viaFile = await local.connect();
    await call(viaImHex, 'select_data_source', { handle: 0 });
    for (const args of [{}, { blocks: 7 }, { start_offset: 1000, end_offset: 50_000, block_size: 1024 }]) {
      const ours = await call(viaImHex, 'file_map', args);
      expect(ours).toEqual(await call(viaFile, 'file_map', args));
    }
    const whole = await call(viaImHex, 'file_map', { blocks: 4 });
    expect(whole.file_size).toBe(A.length);
    const kinds = new Set(((await call(viaImHex, 'file_map', { block_size: 2048 })).blocks as Array<{ kind: string }>).map((b) => b.kind));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['ff', 'random', 'text', 'zeros']));
    const reads = (imhex.state.requests as string[])
      .filter((r) => r.includes('"read_data"'))
      .map((r) => JSON.parse(r).params.arguments.size as number);
    expect(reads.length).toBeGreaterThan(0);
    expect(Math.max(...reads)).toBeLessThanOrEqual(PIECE);
    // A bad range names its field, as in local mode.
    const bad = await viaImHex.callTool({ name: 'imhex_file_map', arguments: { start_offset: A.length + 1 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('start_offset');
  });

  it('gives each client the data source it chose, however their calls interleave; one that chose none reads the user’s', async () => {
    const first = await stock.connect();
    const second = await stock.connect('modern');
    const neither = await stock.connect();
    // The user has b.bin in front (the replica opened it last); the first client picks a.bin, the second b.bin.
    expect(await call(first, 'select_data_source', { handle: 0 })).toEqual({ selected_handle: 0 });
    expect(await call(second, 'select_data_source', { handle: 1 })).toEqual({ selected_handle: 1 });
    const rounds = await Promise.all(
      Array.from({ length: 4 }, () =>
        Promise.all([
          call(first, 'read_bytes', { offset: 0, count: 64 }),
          call(second, 'read_bytes', { offset: 0, count: 64 }),
          call(first, 'search', { pattern: 'de ad be ef' }),
          call(second, 'search', { pattern: 'de ad be ef' }),
          call(neither, 'hexdump', { offset: 96, count: 16 }),
        ]),
      ),
    );
    for (const [readA, readB, findA, findB, dump] of rounds) {
      expect(readA.hex_data).toBe(A.subarray(0, 64).toString('hex'));
      expect(readB.hex_data).toBe(B.subarray(0, 64).toString('hex'));
      expect(findA.offsets).toEqual(naiveSearch(A, [0xde, 0xad, 0xbe, 0xef]));
      expect(findB.offsets).toEqual(naiveSearch(B, [0xde, 0xad, 0xbe, 0xef]));
      expect(dump.dump).toContain('dead beef');
    }
    const [mapA, mapB] = await Promise.all([call(first, 'file_map', { blocks: 8 }), call(second, 'file_map', { blocks: 8 })]);
    expect([mapA.file_size, mapB.file_size]).toEqual([A.length, B.length]);

    // The user brings a.bin to the front in ImHex's window (b.bin was current: the second client
    // read last): the second client still reads b.bin, and the one that chose none follows the user.
    await call(second, 'read_bytes', { offset: 0, count: 1 });
    imhex.state.current = 0;
    expect((await call(second, 'read_bytes', { offset: 100, count: 4 })).hex_data).toBe('deadbeef');
    expect((await call(neither, 'read_bytes', { offset: PIECE - 2, count: 4 })).hex_data).toBe('deadbeef');

    // A source that was closed is named, with what to do.
    imhex.closeSource(1);
    const gone = await second.callTool({ name: 'imhex_read_bytes', arguments: { offset: 0, count: 4 } });
    expect(gone.isError).toBe(true);
    expect(JSON.stringify(gone.content)).toMatch(/handle 1\) is no longer open in ImHex: choose one with imhex_select_data_source/);
    expect((await call(first, 'read_bytes', { offset: 0, count: 4 })).hex_data).toBe(A.subarray(0, 4).toString('hex'));
  });
});
