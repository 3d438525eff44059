// The selection of a local file belongs to the client that set it: two 2025-era sessions of one
// HTTP host each keep their own between requests, a 2026-era request (a client of its own) sees
// neither, and a session's selection goes when the session does. Real HTTP on 127.0.0.1, the
// official SDK client, the host in-process as `mcphost serve --transport http` runs it.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { openHost } from '../../../src/app/open.js';
import { serveOnHttp } from '../../../src/server/http.js';
import { isolatedEnv } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/tmp.js';

const tmp = tempDir();
writeFileSync(path.join(tmp.dir, 'data.bin'), Buffer.alloc(4096, 7));
writeFileSync(path.join(tmp.dir, '.mcprc.json'), JSON.stringify({ plugins: { imhex: { file: 'data.bin' } } }));

const { registry, logger, resolved } = await openHost({
  cwd: tmp.dir,
  env: isolatedEnv(tmp.dir),
  serving: true,
  writeLog: () => undefined,
});
const serving = await serveOnHttp(registry, { name: 'mcphost', version: 'test' }, { ...resolved.config.http, port: 0 }, logger);
const clients: Client[] = [];
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await serving.close();
  await registry.close();
});

async function connect(era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client({ name: 't', version: '1' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
  clients.push(client);
  return client;
}

const selection = async (c: Client) => (await c.callTool({ name: 'imhex_get_selection', arguments: {} })).structuredContent;
const select = (c: Client, start: number, size: number) =>
  c.callTool({ name: 'imhex_set_selection', arguments: { start_offset: start, size } });

describe('imhex selection on a local file, per client', () => {
  it('two 2025-era sessions keep their own selection through many interleaved calls', async () => {
    const [a, b] = await Promise.all([connect('legacy'), connect('legacy')]);
    for (let round = 0; round < 20; round++) {
      await Promise.all([select(a, round, 10), select(b, 1000 + round, 20)]);
      const [sa, sb] = await Promise.all([selection(a), selection(b)]);
      expect(sa).toEqual({ start_offset: round, size: 10, end_offset: round + 9 });
      expect(sb).toEqual({ start_offset: 1000 + round, size: 20, end_offset: 1019 + round });
    }
  });

  it("a 2026-era client sees no session's selection, and its own lasts one request", async () => {
    const [legacy, modern] = await Promise.all([connect('legacy'), connect('modern')]);
    await select(legacy, 64, 8);
    expect((await select(modern, 128, 4)).isError).toBeFalsy();
    expect(await selection(modern)).toEqual({ start_offset: null, size: 0, end_offset: null });
    expect(await selection(legacy)).toEqual({ start_offset: 64, size: 8, end_offset: 71 });
  });

  it('a new session starts with nothing selected, whatever the earlier ones selected', async () => {
    const first = await connect('legacy');
    await select(first, 3, 3);
    await first.close();
    expect(await selection(await connect('legacy'))).toEqual({ start_offset: null, size: 0, end_offset: null });
  });
});
