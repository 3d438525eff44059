// mode imhex-mcp: the imhex tools on stock ImHex through `imhex --mcp`, served in-process to the
// official SDK client. ImHex is the replica read from ImHex's source (test/fixtures/imhex/
// imhex-replica.js), reached through the replica of its stdio bridge run as a real child process.
import { writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startImHexReplica } from '../../fixtures/imhex/imhex-replica.js';
import { isolatedEnv } from '../../helpers/cli.ts';
import { serveInProcess, type InProcessSession } from '../../helpers/in-process.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { naiveSearch, seededBytes, writeImHexConfig } from './helpers.ts';
import { sdkCall } from './scenario.ts';
import { alive, bridgeCommand } from './stock-helpers.ts';

const tmp = tempDir('imhex-stock-');
const PIECE = 4096;
const DATA = seededBytes(5 * PIECE + 77, 31);
// Plant copies across every piece boundary, at a different split each time.
const PATTERN = [0xca, 0xfe, null, 0xba, 0xbe];
for (let k = 1; k <= 5; k++) [0xca, 0xfe, 0x11 * k, 0xba, 0xbe].forEach((b, i) => (DATA[k * PIECE - (k % 4) - 1 + i] = b));
const file = tmp.write('firmware.bin', '');
writeFileSync(file, DATA);

type Replica = Awaited<ReturnType<typeof startImHexReplica>>;

async function serve(replicaPort: number | undefined, section: Record<string, unknown> = {}, paceMs = 0) {
  const dir = tmp.write(`cwd-${Math.random().toString(36).slice(2)}`, '');
  const { rmSync, mkdirSync } = await import('node:fs');
  rmSync(dir);
  mkdirSync(dir);
  writeImHexConfig(dir, { mode: 'imhex-mcp', mcpPieceBytes: PIECE, requestTimeoutMs: 5_000, ...section });
  const env = isolatedEnv(dir, { IMHEX_MCP_COMMAND: bridgeCommand(replicaPort, paceMs) });
  return { dir, env, session: await serveInProcess({ cwd: dir, plugins: ['imhex'], env }) };
}

describe('imhex-mcp on the ImHex replica with a file open', () => {
  let imhex: Replica;
  let session: InProcessSession;
  beforeAll(async () => {
    imhex = await startImHexReplica({ files: [file], quietMs: 2 });
    session = (await serve(imhex.port)).session;
  });
  afterAll(async () => {
    await session?.close();
    await imhex?.close();
  });

  it('publishes one surface: the seed commands and what only ImHex’s own tools add, with ImHex’s schemas', async () => {
    await session.client.callTool({ name: 'imhex_read_bytes', arguments: { offset: 0, count: 1 } }); // ImHex reached: its own list is published
    const { tools } = await session.client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(
      [
        'imhex_execute_pattern_code',
        'imhex_file_map',
        'imhex_get_offset_info',
        'imhex_get_pattern_console_content',
        'imhex_get_patterns',
        'imhex_get_selection',
        'imhex_hexdump',
        'imhex_list_open_data_sources',
        'imhex_open_file',
        'imhex_read_bytes',
        'imhex_search',
        'imhex_select_data_source',
        'imhex_set_selection',
        'imhex_write_bytes',
      ].sort(),
    );
    const open = tools.find((t) => t.name === 'imhex_open_file')!;
    expect(open.inputSchema).toMatchObject({ type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] });
    expect(open.outputSchema?.required).toEqual(['name', 'type', 'size', 'is_writable', 'handle']);
    // ImHex lists read_data (the replica does): read_bytes is its one tool; each says what it acts on and what ImHex lacks.
    expect(open.description).toMatch(/^Opens a file in ImHex so the imhex_\* tools act on it/);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.description ?? '']));
    expect(byName.imhex_read_bytes).toMatch(/Reads what ImHex has open .*read_data is not published/);
    expect(byName.imhex_write_bytes).toMatch(/Stock ImHex has no tool for it: refused there, unless ImHex lists write_data/);
    expect(byName.imhex_hexdump).toMatch(/Dumps what ImHex has open/);
  });

  it('reads, searches, inspects and dumps ImHex’s bytes; write and selection are refused', async () => {
    const call = sdkCall(session);
    const read = await call('read_bytes', { offset: PIECE - 10, count: 3 * PIECE });
    expect(read.structured).toEqual({
      offset: PIECE - 10,
      count: 3 * PIECE,
      bytes_read: 3 * PIECE,
      hex_data: DATA.subarray(PIECE - 10, 4 * PIECE - 10).toString('hex'),
    });
    const tail = await call('read_bytes', { offset: DATA.length - 5, count: 64 });
    expect(tail.structured).toMatchObject({ bytes_read: 5, hex_data: DATA.subarray(-5).toString('hex') });
    // ImHex answers zeros past the end; mcphost says there is nothing there.
    expect((await call('read_bytes', { offset: DATA.length + 10, count: 8 })).structured).toMatchObject({ bytes_read: 0, hex_data: '' });

    const found = await call('search', { pattern: 'ca fe ?? ba be' });
    expect(found.structured).toEqual({ offsets: naiveSearch(DATA, PATTERN) });
    expect((found.structured.offsets as number[]).length).toBeGreaterThanOrEqual(5);
    const capped = await call('search', { pattern: 'ca fe', max_results: 2 });
    expect(capped.structured).toEqual({ offsets: naiveSearch(DATA, [0xca, 0xfe]).slice(0, 2), truncated: true });

    const info = await call('get_offset_info', { offset: 0x1000 });
    expect(info.structured).toMatchObject({
      offset: 0x1000,
      address_str: '0x00001000',
      inspector: { hex: DATA.subarray(0x1000, 0x1010).toString('hex') },
    });
    const dump = await call('hexdump', { offset: 16, count: 32 });
    expect(dump.structured).toMatchObject({ bytes_read: 32 });

    for (const [tool, args] of [
      ['write_bytes', { offset: 0, data: '00' }],
      ['get_selection', {}],
      ['set_selection', { start_offset: 0, size: 1 }],
    ] as const) {
      const r = await call(tool, args);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(
        new RegExp(
          `^${tool} is not supported by stock ImHex's MCP server \\(it has no tool for it\\): use mode imhex with the MCP Integration plugin, or a file`,
        ),
      );
    }
  });

  it('reads in pieces no larger than mcpPieceBytes, a search one whole piece per request', async () => {
    const reads = async (run: () => Promise<unknown>) => {
      const before = imhex.state.requests.length;
      await run();
      return imhex.state.requests
        .slice(before)
        .map((r) => JSON.parse(r))
        .filter((r) => r.params?.name === 'read_data')
        .map((r) => [r.params.arguments.address, r.params.arguments.size]);
    };
    expect(await reads(() => sdkCall(session)('read_bytes', { offset: 0, count: 2 * PIECE + 1 }))).toEqual([
      [0, PIECE],
      [PIECE, PIECE],
      [2 * PIECE, 1],
    ]);
    // 5-byte pattern: chunks of PIECE - 4 starts, each read with the 4 bytes after it.
    expect(await reads(() => sdkCall(session)('search', { pattern: 'ca fe ?? ba be', end_offset: 3 * (PIECE - 4) }))).toEqual([
      [0, PIECE],
      [PIECE - 4, PIECE],
      [2 * (PIECE - 4), PIECE],
    ]);
  });

  it('forwards ImHex’s own tools: open_file, list_open_data_sources, pattern code', async () => {
    const other = tmp.write('other.bin', '');
    writeFileSync(other, Buffer.from('4d5a900072657374', 'hex'));
    imhex.state.patternRuntime = (source: string, bytes: Buffer) =>
      source.includes('u16 magic @ 0x00')
        ? { resultCode: 0, console: ['I: Pattern exited with code: 0'], patterns: { magic: bytes.readUInt16LE(0) } }
        : { resultCode: 1, console: ['E: unexpected token'], patterns: {} };
    const opened = await session.client.callTool({ name: 'imhex_open_file', arguments: { file_path: other } });
    expect(opened.structuredContent).toMatchObject({ name: 'other.bin', size: 8, type: 'hex.builtin.provider.file' });
    const list = await session.client.callTool({ name: 'imhex_list_open_data_sources', arguments: {} });
    expect((list.structuredContent as { data_sources: unknown[] }).data_sources).toHaveLength(2);
    const run = await session.client.callTool({ name: 'imhex_execute_pattern_code', arguments: { source_code: 'u16 magic @ 0x00;' } });
    expect(run.structuredContent).toMatchObject({ result_code: 0 });
    const patterns = await session.client.callTool({ name: 'imhex_get_patterns', arguments: {} });
    expect(patterns.structuredContent).toMatchObject({ patterns: { magic: 0x5a4d } });
    // The seed commands now read the file ImHex has current.
    expect((await sdkCall(session)('read_bytes', { offset: 0, count: 4 })).structured).toMatchObject({ hex_data: '4d5a9000' });
    const back = await session.client.callTool({ name: 'imhex_select_data_source', arguments: { handle: 0 } });
    expect(back.structuredContent).toEqual({ selected_handle: 0 });
  });
});

describe('imhex-mcp refusals and failures', () => {
  const sessions: InProcessSession[] = [];
  const replicas: Replica[] = [];
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
    await Promise.all(replicas.splice(0).map((r) => r.close()));
  });
  const start = async (options: Parameters<typeof startImHexReplica>[0], section: Record<string, unknown> = {}, paceMs = 0) => {
    const imhex = options ? await startImHexReplica({ quietMs: 2, ...options }) : undefined;
    if (imhex) replicas.push(imhex);
    const { session } = await serve(imhex?.port, section, paceMs);
    sessions.push(session);
    return { imhex, session, call: sdkCall(session) };
  };

  it('refuses to read with no data source open instead of letting ImHex crash; uses write_data and selection tools when offered', async () => {
    // A hypothetical ImHex that has write_data, get_selection and set_selection (see imhex-replica.js).
    const { imhex, call, session } = await start({ hypotheticalTools: true });
    for (const tool of ['read_bytes', 'search', 'hexdump', 'get_offset_info'] as const) {
      const r = await call(tool, tool === 'search' ? { pattern: '00' } : { offset: 0 });
      expect(r.error).toMatchObject({ code: -32001 });
      expect(r.text).toMatch(/^ImHex has no data source open: open a file in ImHex, or call imhex_open_file with its path/);
    }
    const direct = await session.client.callTool({ name: 'imhex_get_patterns', arguments: {} });
    expect(direct.isError).toBe(true);
    // This ImHex lists write_data and the selection tools: the seed's commands no longer say they are refused.
    const listed = Object.fromEntries((await session.client.listTools()).tools.map((t) => [t.name, t.description ?? '']));
    expect(listed.imhex_write_bytes).not.toMatch(/no tool for it/);
    expect(imhex!.state.crashed).toBe(false);

    const copy = tmp.write('copy.bin', 'abcdefgh');
    expect((await session.client.callTool({ name: 'imhex_open_file', arguments: { file_path: copy } })).isError).toBeFalsy();
    expect((await call('write_bytes', { offset: 2, data: '5859' })).structured).toEqual({ offset: 2, bytes_written: 2, status: 'success' });
    expect((imhex!.state.sources[0] as { data: Buffer }).data.toString()).toBe('abXYefgh');
    expect((await call('set_selection', { start_offset: 1, size: 3 })).structured).toEqual({ status: 'success', start_offset: 1, size: 3 });
    expect((await call('get_selection', {})).structured).toEqual({ start_offset: 1, size: 3, end_offset: 3 });
  });

  it('says to start ImHex when none runs, with ImHex’s own words', async () => {
    const { call } = await start(undefined);
    const r = await call('read_bytes', { offset: 0 });
    expect(r.error).toMatchObject({ code: 'UNAVAILABLE' });
    expect(r.text).toContain('stock ImHex not reachable through `env');
    expect(r.text).toContain('No other instance of ImHex is running. Make sure that you have ImHex open already.');
    expect(r.text).toContain('Settings → General → Network → MCP Server');
  });

  it('says the bridge gave up when ImHex’s MCP server is off, quoting its stderr', async () => {
    const off = await startImHexReplica();
    const port = off.port;
    await off.close();
    const dirEnv = await serve(port);
    sessions.push(dirEnv.session);
    const r = await sdkCall(dirEnv.session)('read_bytes', { offset: 0 });
    expect(r.error).toMatchObject({ code: 'UNAVAILABLE' });
    expect(r.text).toMatch(/exited with code 0: MCP Client disconnected!/);
  });

  it('stops a bridge stuck on a vanished ImHex, and starts a new one for the next call', async () => {
    const { imhex, call, session } = await start({ files: [file] }, { requestTimeoutMs: 400 });
    expect((await call('read_bytes', { offset: 0, count: 2 })).isError).toBe(false);
    const health = await session.registry.host('imhex')!.health();
    const pid = (health.detail as { bridge: { pid: number } }).bridge.pid;
    expect(alive(pid)).toBe(true);
    await imhex!.close(); // ImHex quits: the real bridge would spin on the closed socket for ever
    const stuck = await call('read_bytes', { offset: 0, count: 2 });
    expect(stuck.error).toMatchObject({ code: 'UNAVAILABLE' });
    expect(stuck.text).toMatch(/ImHex did not answer list_open_data_sources within 400 ms/);
    expect(alive(pid)).toBe(false);
    const next = await call('read_bytes', { offset: 0, count: 2 });
    expect(next.error).toMatchObject({ code: 'UNAVAILABLE' });
    expect(next.text).toMatch(/MCP Client disconnected!/);
  });

  it('works at ImHex’s real pace (100 ms quiet per request, 100 ms sleep per answer)', async () => {
    const { call } = await start({ files: [file], quietMs: 100 }, {}, 100);
    const r = await call('read_bytes', { offset: PIECE - 8, count: PIECE + 16 });
    expect(r.structured).toMatchObject({ bytes_read: PIECE + 16, hex_data: DATA.subarray(PIECE - 8, 2 * PIECE + 8).toString('hex') });
  });
});

describe('mode auto and doctor with stock ImHex', () => {
  it('finds stock ImHex when no MCP Integration server answers, and says so', async () => {
    const imhex = await startImHexReplica({ files: [file], quietMs: 2 });
    try {
      const { createServer } = await import('node:net');
      const s = createServer();
      await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
      const port = (s.address() as { port: number }).port;
      await new Promise((r) => s.close(r));
      const dir = tmp.write('auto-cwd', '');
      const { rmSync, mkdirSync } = await import('node:fs');
      rmSync(dir);
      mkdirSync(dir);
      writeImHexConfig(dir, { port, mcpPieceBytes: PIECE });
      const env = isolatedEnv(dir, { IMHEX_MCP_COMMAND: bridgeCommand(imhex.port) });
      const session = await serveInProcess({ cwd: dir, plugins: ['imhex'], env });
      try {
        const r = await sdkCall(session)('read_bytes', { offset: 0, count: 4 });
        expect(r.structured).toMatchObject({ bytes_read: 4, hex_data: DATA.subarray(0, 4).toString('hex') });
        const health = await session.registry.host('imhex')!.health();
        expect(health.message).toMatch(
          /^mode auto found stock ImHex via `env .*`: stock ImHex 1\.39\.0\.WIP via .*: 1 data source open: firmware\.bin/,
        );
        const pid = (health.detail as { bridge: { pid: number } }).bridge.pid;
        expect(alive(pid)).toBe(true);
        await session.close();
        // The bridge ignores its stdin closing; mcphost still stops it with the host.
        expect(alive(pid)).toBe(false);
      } finally {
        await session.close();
      }
    } finally {
      await imhex.close();
    }
  });
});
