// Every imhex error path as an SDK-based client (the MCP Inspector, mcporter) sees it: the official
// SDK client has listed the tools, so it checks each result against the tool's output schema, and
// an error result must still arrive as a result with imhex's own message — not as "structured
// content does not match the output schema". (Stock-ImHex and ImHex-over-TCP errors are checked
// the same way in stock-imhex.test.ts and tools.test.ts.)
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveInProcess, type InProcessSession } from '../../helpers/in-process.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { seededBytes, writeImHexConfig } from './helpers.ts';

const tmp = tempDir('imhex-errors-');
const SIZE = 4096;

async function session(section: Record<string, unknown>, name: string): Promise<{ s: InProcessSession; dir: string }> {
  const dir = path.join(tmp.dir, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'data.bin'), seededBytes(SIZE, 5));
  writeImHexConfig(dir, section);
  const s = await serveInProcess({ cwd: dir, plugins: ['imhex'] });
  await s.client.listTools(); // the client now validates results against the output schemas
  return { s, dir };
}

async function expectError(
  s: InProcessSession,
  tool: string,
  args: Record<string, unknown>,
  code: string | number,
  message: string | RegExp,
) {
  const r = (await s.client.callTool({ name: `imhex_${tool}`, arguments: args })) as {
    isError?: boolean;
    structuredContent?: unknown;
    _meta?: Record<string, { code: unknown; message: string }>;
    content: Array<{ text: string }>;
  };
  expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  const text = r.content.map((c) => c.text).join('\n');
  if (typeof message === 'string') expect(text).toBe(message);
  else expect(text).toMatch(message);
  expect(r._meta?.['mcphost/error']).toMatchObject({ code, message: text });
}

describe('imhex errors through the SDK client (local file, read-only)', () => {
  let s: InProcessSession;
  let dir: string;
  beforeAll(async () => ({ s, dir } = await session({ file: 'data.bin' }, 'ro')));
  afterAll(() => s?.close());

  it('a write to a read-only file', async () => {
    await expectError(
      s,
      'write_bytes',
      { offset: 0, data: '00' },
      -32003,
      `Provider is not writable: ${path.join(dir, 'data.bin')} is open read-only; set plugins.imhex.writable: true to allow write_bytes`,
    );
  });

  it.each([
    ['read_bytes', { offset: -1 }, 'offset: must be 0 or more, got -1'],
    [
      'read_bytes',
      { offset: 0, count: 2_097_152 },
      'count: 2097152 is over the limit of 1048576 bytes per call: read in parts, or raise plugins.imhex.maxBytes',
    ],
    [
      'hexdump',
      { offset: 0, count: 300_000 },
      'count: 300000 is over the limit of 262144 bytes per call: dump in parts, or use read_bytes',
    ],
    ['write_bytes', { offset: 0, data: 'abc' }, 'data: has an odd number of hex digits (3): every byte needs two'],
    ['write_bytes', { offset: 0, data: 'xyz1' }, 'data: "x" at position 0 is not a hex digit'],
    ['search', { pattern: '' }, 'pattern: is empty: give at least one byte as two hex digits'],
    ['search', { pattern: 'a? 00' }, 'pattern: "a?" (byte 0) mixes a hex digit with ?: a wildcard is a whole byte, ??'],
    ['search', { pattern: '00', start_offset: 10, end_offset: 5 }, 'end_offset: 5 is before start_offset 10'],
    ['search', { pattern: '00', max_results: 0 }, 'max_results: must be 1 or more, got 0'],
    // issue 14 case 6: these ran 28 s / 1.5 GB and never answered
    [
      'search',
      { pattern: '00', max_results: 3e7 },
      'max_results: 30000000 is over the limit of 100000 matches per call: narrow the range (start_offset/end_offset) and search again from after the last offset found',
    ],
    [
      'search',
      { pattern: '00', maxResults: 1e8 },
      'maxResults: 100000000 is over the limit of 100000 matches per call: narrow the range (start_offset/end_offset) and search again from after the last offset found',
    ],
    [
      'search',
      { pattern: '00', max_results: 5, maxResults: 6 },
      'maxResults: is the deprecated name of max_results and disagrees with it (6 vs 5): give only max_results',
    ],
    ['set_selection', { start_offset: 4000, size: 100 }, `size: the selection 4000+100 runs past the end of the data (${SIZE} bytes)`],
    ['set_selection', { start_offset: -5, size: 1 }, 'start_offset: must be 0 or more, got -5'],
  ])('%s %j', async (tool, args, message) => {
    await expectError(s, tool, args, -32602, message);
  });
});

describe('imhex errors through the SDK client (file and provider problems)', () => {
  it('a write past the end, and a file deleted after it was opened', async () => {
    const { s, dir } = await session({ file: 'data.bin', writable: true }, 'rw');
    try {
      await expectError(
        s,
        'write_bytes',
        { offset: SIZE - 2, data: '01020304' },
        -32602,
        `offset: writing 4 bytes at ${SIZE - 2} runs past the end of the data (${SIZE} bytes): writes never grow the file unless plugins.imhex.allowGrow is true`,
      );
      rmSync(path.join(dir, 'data.bin'));
      await expectError(
        s,
        'write_bytes',
        { offset: 0, data: '01' },
        'UNAVAILABLE',
        `${path.join(dir, 'data.bin')} was deleted or moved after mcphost opened it: nothing was read or written — put the file back, or set plugins.imhex.file to where it is now`,
      );
    } finally {
      await s.close();
    }
  });

  it('a missing file, a folder, and an ImHex that is not running', async () => {
    const missing = await session({ file: 'missing.bin' }, 'missing');
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const tcp = await session({ mode: 'imhex', port }, 'tcp');
    try {
      await expectError(
        missing.s,
        'read_bytes',
        { offset: 0 },
        'UNAVAILABLE',
        `cannot open ${path.join(missing.dir, 'missing.bin')}: ENOENT — set plugins.imhex.file (or pass --file) to an existing file`,
      );
      await expectError(
        tcp.s,
        'get_selection',
        {},
        'UNAVAILABLE',
        `ImHex not reachable at 127.0.0.1:${port} — is the MCP Integration plugin's server running?`,
      );
    } finally {
      await missing.s.close();
      await tcp.s.close();
    }
    const folder = await session({ file: '.' }, 'folder');
    try {
      await expectError(
        folder.s,
        'read_bytes',
        { offset: 0 },
        'UNAVAILABLE',
        /it is a directory, not a regular file — set plugins\.imhex\.file \(or --file\) to a regular file$/,
      );
    } finally {
      await folder.s.close();
    }
  });
});
