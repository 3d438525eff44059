// The replica of stock ImHex's MCP server and of `imhex --mcp` against what ImHex's source says it
// does (see the headers of test/fixtures/imhex/imhex-replica.js and imhex-mcp-bridge.js), spoken
// to line by line: these are the wire details mcphost's stock-ImHex provider relies on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startImHexReplica } from '../../fixtures/imhex/imhex-replica.js';
import { tempDir } from '../../helpers/tmp.ts';
import { seededBytes } from './helpers.ts';
import { rawBridge, type RawBridge } from './stock-helpers.ts';

const tmp = tempDir('imhex-replica-');
const DATA = seededBytes(20 * 1024 * 1024 + 5, 8);
const file = tmp.write('data.bin', '');
const NO_INSTANCE = 'No other instance of ImHex is running. Make sure that you have ImHex open already.';
const initialize = (
  id: number,
  params: object = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params,
});
const read = (id: number, address: number, size: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'read_data', arguments: { address, size } },
});

describe('the ImHex replica through the imhex --mcp replica', () => {
  let imhex: Awaited<ReturnType<typeof startImHexReplica>>;
  let bridge: RawBridge;
  beforeAll(async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, DATA);
    imhex = await startImHexReplica({ files: [file], quietMs: 5 });
    bridge = rawBridge(imhex.port);
  });
  afterAll(async () => {
    bridge?.kill();
    await imhex?.close();
  });

  it('answers initialize as server.cpp does, sorted keys and all, and -32602 without protocolVersion', async () => {
    bridge.send(initialize(1));
    expect(await bridge.next()).toBe(
      '{"id":1,"jsonrpc":"2.0","result":{"capabilities":{"tools":{}},"protocolVersion":"2025-06-18","serverInfo":{"name":"ImHex","version":"1.39.0.WIP"}}}',
    );
    bridge.send(initialize(2, {}));
    expect(JSON.parse(await bridge.next())).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid params' } });
  });

  it('answers no notification, -32601 for anything but initialize and tools, -32603 for a string id', async () => {
    bridge.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    bridge.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    // The next line answers the ping: the notification got none.
    expect(JSON.parse(await bridge.next())).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } });
    bridge.send({ jsonrpc: '2.0', id: 4, method: 'resources/list' });
    expect(JSON.parse(await bridge.next()).error.code).toBe(-32601);
    bridge.send({ jsonrpc: '2.0', id: 'x', method: 'tools/list' });
    expect(JSON.parse(await bridge.next())).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32603, message: '[json.exception.type_error.302] type must be number, but is string' },
    });
    bridge.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
    expect(JSON.parse(await bridge.next()).error).toEqual({ code: -32601, message: 'Method not found' });
  });

  it('lists its seven tools sorted by name, with ImHex’s schemas', async () => {
    bridge.send({ jsonrpc: '2.0', id: 6, method: 'tools/list' });
    const { tools } = JSON.parse(await bridge.next()).result;
    expect(tools.map((t: { name: string }) => t.name)).toEqual([
      'execute_pattern_code',
      'get_pattern_console_content',
      'get_patterns',
      'list_open_data_sources',
      'open_file',
      'read_data',
      'select_data_source',
    ]);
    expect(tools.find((t: { name: string }) => t.name === 'read_data').inputSchema.required).toEqual(['address', 'size']);
  });

  it('reads base64 of at most 16 MiB, and zeros past the end of the data', async () => {
    bridge.send(read(7, 1000, 64));
    const small = JSON.parse(await bridge.next()).result;
    expect(Buffer.from(small.structuredContent.data, 'base64')).toEqual(DATA.subarray(1000, 1064));
    expect(small.structuredContent).toMatchObject({ handle: 0, data_size: 64 });
    expect(JSON.parse(small.content[0].text)).toEqual(small.structuredContent);
    bridge.send(read(8, 0, 20 * 1024 * 1024));
    const capped = JSON.parse(await bridge.next()).result.structuredContent;
    expect(capped.data_size).toBe(16 * 1024 * 1024);
    expect(Buffer.from(capped.data, 'base64').equals(DATA.subarray(0, 16 * 1024 * 1024))).toBe(true);
    bridge.send(read(9, DATA.length - 2, 8));
    const tail = JSON.parse(await bridge.next()).result.structuredContent;
    expect(tail).toMatchObject({ data_size: 2, data: DATA.subarray(DATA.length - 2).toString('base64') });
    // Starting past the end, ImHex's unsigned size - address wraps: it answers `size` zero bytes.
    bridge.send(read(10, DATA.length + 100, 8));
    expect(JSON.parse(await bridge.next()).result.structuredContent).toMatchObject({
      data_size: 8,
      data: Buffer.alloc(8).toString('base64'),
    });
  });

  it('crashes on read_data with no data source open; the bridge then answers nothing more', async () => {
    const empty = await startImHexReplica({ quietMs: 5 });
    const b = rawBridge(empty.port);
    try {
      b.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_open_data_sources', arguments: {} } });
      expect(JSON.parse(await b.next()).result.structuredContent).toEqual({ data_sources: [] });
      b.send(read(2, 0, 4));
      await expect.poll(() => empty.state.crashed).toBe(true);
      b.child.kill('SIGTERM');
      expect((await b.exited).signal).toBe('SIGTERM');
    } finally {
      b.kill();
      await empty.close();
    }
  });
});

describe('one MCP client at a time', () => {
  it('answers a second bridge only once the first has gone', async () => {
    const imhex = await startImHexReplica({ quietMs: 5 });
    const first = rawBridge(imhex.port);
    let second: RawBridge | undefined;
    try {
      first.send(initialize(1));
      expect(JSON.parse(await first.next()).id).toBe(1); // the first is connected and served
      second = rawBridge(imhex.port);
      second.send(initialize(2));
      const answered = second.next();
      let early = false;
      void answered.then(() => (early = true));
      first.send(initialize(3)); // the first client is still served…
      expect(JSON.parse(await first.next()).id).toBe(3);
      expect(early).toBe(false); // …and the second, which asked before it, still waits
      first.kill();
      expect(JSON.parse(await answered).id).toBe(2);
    } finally {
      first.kill();
      second?.kill();
      await imhex.close();
    }
  });
});

describe('imhex --mcp replica without a usable ImHex', () => {
  it('answers every line with "No other instance" when no ImHex runs, notifications too (id null)', async () => {
    const b = rawBridge(undefined);
    try {
      b.send(initialize(1));
      expect(JSON.parse(await b.next())).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: NO_INSTANCE } });
      b.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(JSON.parse(await b.next())).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32603, message: NO_INSTANCE } });
      b.send('not json');
      expect(JSON.parse(await b.next()).error).toEqual({ code: -32700, message: 'Parse error' });
    } finally {
      b.kill();
    }
  });

  it('exits 0 after the first line when ImHex runs with its MCP server off', async () => {
    const off = await startImHexReplica();
    const port = off.port;
    await off.close(); // nothing listens on the port any more
    const b = rawBridge(port);
    b.send(initialize(1));
    const exit = await b.exited;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toBe('MCP Client disconnected!\n');
  });
});
