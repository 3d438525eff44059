// Issue 21, item 4, for stock ImHex's own `open_file`: its `file_path` goes through ctx.files, so a
// client over HTTP cannot make ImHex open a file outside the roots (the refusal comes before ImHex
// is reached), while a local client's path is passed on, made absolute against the working directory.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CallContext } from '../../../src/backend/types.js';
import { HostClient } from '../../../src/registry/clients.js';
import { FileRoots } from '../../../src/registry/files.js';
import { KNOWN_TOOLS } from '../../../plugins/imhex/mcp/known-tools.js';
import { stockToolDefs } from '../../../plugins/imhex/mcp/stock-tools.js';
import type { ImHexConfig } from '../../../plugins/imhex/config.js';
import type { StockImHex } from '../../../plugins/imhex/mcp/stock-client.js';
import { tempDir } from '../../helpers/tmp.js';

const roots = tempDir('mcphost-imhex-roots-');
const inside = roots.write('firmware.bin', 'MZ');

function openFile(client: HostClient) {
  const calls: Array<Record<string, unknown>> = [];
  const stock = { call: async (_name: string, args: Record<string, unknown>) => (calls.push(args), { ok: true }) } as unknown as StockImHex;
  const [def] = stockToolDefs(
    KNOWN_TOOLS.filter((t) => t.name === 'open_file'),
    new Set(),
    async () => stock,
  );
  const ctx = {
    files: new FileRoots([roots.dir], '/work/here').access(client),
    signal: new AbortController().signal,
  } as CallContext<ImHexConfig>;
  return { calls, open: (file_path: string) => Promise.resolve(def.handler({ file_path }, ctx)) };
}

describe('imhex_open_file', () => {
  it('refuses a remote client a file outside the roots, the same whether it exists or not, without asking ImHex', async () => {
    const { calls, open } = openFile(new HostClient('http'));
    const refusals = await Promise.all(
      ['/etc/passwd', '/no/such/file.bin', '../../outside.bin'].map((f) => open(f).catch((e: Error) => e.message)),
    );
    expect(new Set(refusals)).toEqual(
      new Set([
        "file_path: not allowed: a client connected over the network may name only files inside the server's file roots (files.roots; a relative path is taken from the first); send the file's content instead",
      ]),
    );
    expect(calls).toEqual([]);
    await open('firmware.bin');
    expect(calls).toEqual([{ file_path: inside }]);
  });

  it("passes a local client's path on, absolute", async () => {
    const { calls, open } = openFile(new HostClient('stdio'));
    await open('/etc/hostname');
    await open('dump.bin');
    expect(calls).toEqual([{ file_path: '/etc/hostname' }, { file_path: path.join('/work/here', 'dump.bin') }]);
  });
});
