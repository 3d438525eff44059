// `mcphost serve --plugins imhex` through the real binary over stdio, spoken to by the official SDK
// client: one walk through every tool on a local file. The same walk runs in-process against every
// provider in tools.test.ts and stock-imhex.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, type StdioSession } from '../../helpers/mcp.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { seededBytes, writeImHexConfig } from './helpers.ts';
import { everyTool, sdkCall } from './scenario.ts';

const tmp = tempDir('imhex-serve-');

describe('mcphost serve --plugins imhex (real binary, stdio), on a local file', () => {
  const dir = path.join(tmp.dir, 'file');
  mkdirSync(dir);
  const file = path.join(dir, 'firmware.bin');
  writeFileSync(file, seededBytes(64 * 1024, 21));
  writeImHexConfig(dir, { file: 'firmware.bin', writable: true });
  let session: StdioSession;
  beforeAll(async () => {
    session = await connectStdio(['--plugins', 'imhex'], { cwd: dir });
  });
  afterAll(() => session?.close());

  it('lists the eight tools with input and output schemas', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'imhex_file_map',
      'imhex_get_offset_info',
      'imhex_get_selection',
      'imhex_hexdump',
      'imhex_read_bytes',
      'imhex_search',
      'imhex_set_selection',
      'imhex_write_bytes',
    ]);
    const read = tools.find((t) => t.name === 'imhex_read_bytes')!;
    expect(read.inputSchema.properties).toMatchObject({
      offset: { type: 'integer', minimum: 0 },
      count: { type: 'integer', default: 256 },
    });
    expect(read.outputSchema?.required).toEqual(['offset', 'count', 'bytes_read', 'hex_data']);
    const search = tools.find((t) => t.name === 'imhex_search')!;
    expect(search.inputSchema.properties).toMatchObject({
      max_results: { type: 'integer', minimum: 1, maximum: 100_000 },
      maxResults: { deprecated: true },
    });
    expect(tools.find((t) => t.name === 'imhex_write_bytes')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  });

  it('answers every tool with the protocol’s shapes and the file’s bytes', async () => {
    await everyTool(sdkCall(session), { persistentSelection: true, truth: () => readFileSync(file) });
  });
});
