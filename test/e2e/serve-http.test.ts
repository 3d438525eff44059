import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli, trustCli } from '../helpers/cli.js';
import { startHttp, type HttpServer } from '../helpers/mcp.js';
import { KITCHEN } from '../helpers/paths.js';
import { tempDir } from '../helpers/tmp.js';

const t = tempDir();
t.write('.mcprc.yaml', `plugins:\n  kitchen:\n    module: ${KITCHEN}\nhttp:\n  maxBodyBytes: 20000\n`);
const env = isolatedEnv(t.dir);
// The file imports a module: approved first, as its user would.
await trustCli(t.dir, env);

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '0' } },
};

describe('mcphost serve --transport http', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startHttp(['--plugins', 'kitchen'], { cwd: t.dir, env });
  });
  afterAll(() => server.stop());

  it('binds 127.0.0.1 and serves /mcp', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`lists and calls tools for a ${era}-era client, with progress`, async () => {
      const client = await server.connect(era);
      expect(client.getNegotiatedProtocolVersion()).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      expect((await client.listTools()).tools.map((x) => x.name)).toContain('kitchen_echo');
      const seen: number[] = [];
      const r = await client.callTool(
        { name: 'kitchen_slow', arguments: { steps: 3, stepMs: 5 } },
        { onprogress: (p) => seen.push(p.progress) },
      );
      expect(r.content).toEqual([{ type: 'text', text: 'done 3' }]);
      expect(seen).toEqual([1, 2, 3]);
      // Progress sent before the handler's first await reaches the client too: over HTTP the SDK links
      // a request to its response stream only after its dispatch returns (the handler starts later).
      const early: number[] = [];
      await client.callTool(
        { name: 'kitchen_slow', arguments: { steps: 2, stepMs: 5, fromZero: true } },
        { onprogress: (p) => early.push(p.progress) },
      );
      expect(early).toEqual([0, 1, 2]);
      expect((await client.callTool({ name: 'kitchen_add', arguments: { a: 1, b: 2 } })).structuredContent).toEqual({ sum: 3 });
    });
  }

  it("ends one client's call at its own deadline and not another's: calls of both eras share the host's deadline timer", async () => {
    const [a, b] = await Promise.all([server.connect('legacy'), server.connect('modern')]);
    const text = (r: { content: unknown }) => (r.content as Array<{ text: string }>)[0]?.text;
    // b's call starts first and ends last; a's, in between, asks for a 200 ms deadline. Each era in both roles.
    for (const [long, short] of [
      [b, a],
      [a, b],
    ]) {
      const longCall = long.callTool({ name: 'kitchen_slow', arguments: { steps: 8, stepMs: 100 } });
      const shortCall = short.callTool({
        name: 'kitchen_slow',
        arguments: { steps: 100, stepMs: 50 },
        _meta: { 'mcphost/timeoutMs': 200 },
      });
      const [ended, finished] = await Promise.all([shortCall, longCall]);
      expect(ended.isError).toBe(true);
      expect(text(ended)).toBe('tool kitchen_slow timed out after 200 ms');
      expect(finished.isError).toBeFalsy();
      expect(text(finished)).toBe('done 8');
    }
  });

  it('gives 2025-era clients a session, and answers older revisions they ask for', async () => {
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      const res = await post(server.url, { ...initialize, params: { ...initialize.params, protocolVersion: version } });
      expect(res.status).toBe(200);
      expect(res.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await res.text()).toContain(`"protocolVersion":"${version}"`);
    }
  });

  it('reports health as JSON with the host version and each backend', async () => {
    const res = await fetch(server.url.replace('/mcp', '/health'));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      ok: true,
      name: 'mcphost',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      backends: { kitchen: { ok: true, message: 'greeting is hello' } },
    });
  });

  it('answers a foreign Origin or Host with 403 before doing anything', async () => {
    const evil = await post(server.url, initialize, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(await evil.text()).toContain('Invalid Origin');
    const { port } = new URL(server.url);
    // A page of another local server (a dev server on 5173) is as foreign as any site; the server's own origin is not.
    const otherPort = await post(server.url, initialize, { origin: 'http://localhost:5173' });
    expect(otherPort.status).toBe(403);
    for (const own of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      expect((await post(server.url, initialize, { origin: own })).status).toBe(200);
    }
    const host = await new Promise<number>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } },
          (res) => resolve(res.statusCode!),
        );
        req.on('error', reject);
        req.end(JSON.stringify(initialize));
      });
    });
    expect(host).toBe(403);
  });

  it('limits the request body size', async () => {
    const res = await post(server.url, { ...initialize, padding: 'x'.repeat(30_000) });
    expect(res.status).toBe(413);
  });

  it('answers a body that is not JSON with a parse error, and an unknown path with 404', async () => {
    const res = await post(server.url, '{nope');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32700);
    expect((await fetch(server.url.replace('/mcp', '/other'))).status).toBe(404);
  });
});

describe('bearer token', () => {
  it('refuses to bind a non-loopback address without a token', async () => {
    const r = await runCli(['serve', '--transport', 'http', '--host', '0.0.0.0', '--port', '0', '--plugins', 'kitchen'], {
      cwd: t.dir,
      env,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('Refusing to serve on 0.0.0.0 without a token');
  });
});
