// `mcphost serve --plugins godot` over Streamable HTTP with the SDK client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../helpers/cli.ts';
import { startHttp, type HttpServer } from '../../helpers/mcp.ts';
import { textResource } from '../../helpers/resource.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { DOC4 } from './helpers.ts';

const tmp = tempDir('godot-http-');
let server: HttpServer;

beforeAll(async () => {
  server = await startHttp(['--plugins', 'godot'], { cwd: tmp.dir, env: isolatedEnv(tmp.dir, { GODOT_DOC_DIR: DOC4 }) });
});
afterAll(async () => {
  await server?.stop();
});

describe.each(['legacy', 'modern'] as const)('godot over HTTP (%s era)', (era) => {
  it('searches, fetches a class and a symbol, and reads resources', async () => {
    const client = await server.connect(era);
    const found = (await client.callTool({ name: 'godot_search', arguments: { query: 'timer timeout signal', limit: 3 } })) as {
      content: Array<{ text: string }>;
    };
    expect(JSON.parse(found.content[0].text)[0]).toMatchObject({ name: 'Timer.timeout', kind: 'signal' });
    const cls = (await client.callTool({ name: 'godot_get_class', arguments: { name: 'Timer' } })) as {
      structuredContent: { name: string; inheritanceChain: string[] };
    };
    expect(cls.structuredContent.inheritanceChain).toEqual(['Timer', 'Node', 'Object']);
    const sym = (await client.callTool({ name: 'godot_get_symbol', arguments: { qname: 'Timer.queue_free' } })) as {
      structuredContent: { className: string };
    };
    expect(sym.structuredContent.className).toBe('Node');
    const page = await client.readResource({ uri: 'godot://symbol/Timer/signal/timeout' });
    expect(textResource(page.contents).text).toMatch(/^# Timer\.timeout \(signal\)/);
    const prompt = await client.getPrompt({ name: 'godot_how_to_use_godot_docs' });
    expect(JSON.stringify(prompt.messages)).toContain('godot_search');
  });
});
