// A Streamable HTTP server (with sessions) mounted from .mcprc: headers from the config (with
// ${VAR} interpolation) reach it, list changes arrive over its SSE stream, and a cancel or a timeout
// on the host reaches the running call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { isolatedEnv } from '../helpers/cli.js';
import { startFixtureServer } from '../helpers/fixture-server.js';
import { FIXTURES } from '../helpers/paths.js';
import { callInProcess, serveInProcess, type InProcessSession } from '../helpers/in-process.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_SERVER, journalLines, textOf, waitFor, whenListed, writeConfig } from './helpers.js';

describe('an HTTP server mounted from .mcprc', () => {
  const tmp = tempDir();
  const journal = path.join(tmp.dir, 'journal.log');
  let upstream: ResultPromise;
  let url: string;
  let session: InProcessSession;
  const env = () => isolatedEnv(tmp.dir, { FX_TOKEN: 's3cret' });

  beforeAll(async () => {
    upstream = execa(process.execPath, [FIXTURE_SERVER, 'http', '0'], {
      env: { FIXTURE_JOURNAL: journal, FIXTURE_TOKEN: 's3cret' },
      reject: false,
    });
    let out = '';
    upstream.stdout?.on('data', (d: Buffer) => void (out += d.toString()));
    const port = await waitFor(() => /listening (\d+)/.exec(out)?.[1], 'the fixture to listen');
    url = `http://127.0.0.1:${port}/mcp`;
    writeConfig(tmp.dir, {
      servers: {
        // warn: the tools it adds at run time are served (block, a project file's default, would
        // withhold them until `mcphost trust --tools`: test/upstream/pinned-tools.test.ts).
        fxh: { url, headers: { Authorization: 'Bearer ${FX_TOKEN}' }, pinTools: 'warn' },
        fxh2: { url, headers: { Authorization: 'Bearer ${FX_TOKEN}' }, timeoutMs: 1500, allowedTools: ['slow'], enabled: false },
        nokey: { url, enabled: false },
      },
    });
    session = await serveInProcess({ cwd: tmp.dir, env: env(), plugins: ['fxh'] });
    await whenListed(session.client, ['fxh_echo']);
  });
  afterAll(async () => {
    await session?.close();
    upstream?.kill('SIGKILL');
    await upstream;
  });

  it('sends the configured headers, and says so when the server refuses the call', async () => {
    expect(textOf(await session.client.callTool({ name: 'fxh_echo', arguments: { text: 'over http' } }))).toBe('echo: over http');
    const refused = callInProcess({ cwd: tmp.dir, env: env(), plugin: 'nokey', tool: 'echo', args: { text: 'x' } });
    await expect(refused).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: `upstream nokey unavailable: ${url} answered HTTP 401 Unauthorized: missing or wrong bearer token`,
    });
  });

  it('forwards tools/list_changed that arrive over the server’s stream', async () => {
    let changed = 0;
    session.client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    await session.client.callTool({ name: 'fxh_add-tool', arguments: { name: 'viahttp' } });
    await waitFor(() => changed > 0, 'tools/list_changed');
    expect((await session.client.listTools()).tools.map((t) => t.name)).toContain('fxh_viahttp');
  });

  it('relays progress and the client’s cancellation', async () => {
    const before = journalLines(journal).filter((l) => l === 'slow:cancelled').length;
    const abort = new AbortController();
    const seen: number[] = [];
    await expect(
      session.client.callTool(
        { name: 'fxh_slow', arguments: { steps: 200, stepMs: 50 } },
        { signal: abort.signal, onprogress: (p) => (seen.push(p.progress), p.progress >= 3 && abort.abort('enough')) },
      ),
    ).rejects.toThrow();
    expect(seen.slice(0, 3)).toEqual([1, 2, 3]);
    await waitFor(() => journalLines(journal).filter((l) => l === 'slow:cancelled').length > before, 'the upstream to see the cancel');
  });

  it('times a one-shot call out and cancels it upstream', async () => {
    const before = journalLines(journal).filter((l) => l === 'slow:cancelled').length;
    const outcome = await callInProcess({ cwd: tmp.dir, env: env(), plugin: 'fxh2', tool: 'slow', args: { steps: 400 } });
    expect(outcome.error).toMatchObject({ kind: 'timeout', message: expect.stringMatching(/timed out after 1500 ms/) });
    await waitFor(() => journalLines(journal).filter((l) => l === 'slow:cancelled').length > before, 'the upstream to see the cancel');
  });
});

describe('resource URIs of a mounted server', () => {
  it('are matched the way the server matches them, and its scheme is its own', async () => {
    // UnrealMCPServer's replica as a plain `servers` entry: any mounted server gets the same routing.
    const ue = await startFixtureServer(path.join(FIXTURES, 'unreal/unreal-mcp-server.mjs'), ['--port', '0'], 'UnrealMCPServer replica');
    const tmp = tempDir();
    const url = `http://127.0.0.1:${ue.port}`;
    writeConfig(tmp.dir, { servers: { ue: { url: `${url}/mcp` } } });
    const session = await serveInProcess({ cwd: tmp.dir });
    try {
      await whenListed(session.client, ['ue_query_asset']);
      const read = await session.client.readResource({ uri: 'unreal+t3d:///Game/Blueprints/BP_Door.BP_Door' });
      expect(read.contents[0]).toMatchObject({ mimeType: 'application/vnd.unreal.t3d', text: expect.stringContaining('Name="BP_Door"') });
      await expect(session.client.readResource({ uri: 'unreal+md:nothing' })).rejects.toThrow(
        'upstream ue answered error -32002: Resource not found',
      );
    } finally {
      await session.close();
      await ue.stop();
    }
  });
});
