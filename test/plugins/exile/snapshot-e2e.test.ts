// The real binary, once per transport and once for the recording command: `mcphost serve` over
// stdio (with evaluation in worker threads: a heavy query does not hold up another call, and a
// client's cancel ends it) and over HTTP, and `mcphost exile:snapshot` recording the replica HUD
// (a real HTTP server built from ExileApi's source). Everything else runs in-process
// (snapshot-serve.test.ts, remote.test.ts, record-replica.test.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { connectStdio, startHttp } from '../../helpers/mcp.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { parseSnapshot } from '../../../plugins/exile/snapshot/serve/load.ts';
import { createSnapshotProvider } from '../../../plugins/exile/snapshot/serve/provider.ts';
import { startReplicaHud, type FakeHud } from '../../fixtures/exile-hud/start.ts';
import { componentOf, ctx, fixtureText, rawFixture, type Raw } from './fixture.ts';

const dir = tempDir('mcphost-exile-e2e-');
let raw: Raw;
// 300³ predicate evaluations: runs until cancelled.
const HEAVY = { from: 'Entities', where: 'Entities.Any(a => Entities.Any(b => Entities.Any(c => c.Id == a.Id + b.Id + Id + 1000000)))' };

beforeAll(() => {
  raw = rawFixture();
  dir.write('state.json', fixtureText());
  dir.write('.mcprc', JSON.stringify({ plugins: { exile: { snapshot: 'state.json', timeBudgetMs: 60_000 } } }));
});

describe('mcphost serve with a snapshot', () => {
  it('over stdio: answers, and another call is answered while a heavy query runs until the client cancels it', async () => {
    const session = await connectStdio(['--plugins', 'exile'], { cwd: dir.dir });
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['exile_eval', 'exile_explore', 'exile_query']);
      const hp = await session.client.callTool({ name: 'exile_eval', arguments: { expr: 'Player.GetComponent<Life>().CurHP' } });
      expect((hp.content as Array<{ text: string }>)[0].text).toBe(String(componentOf(raw.roots.Player, 'Life')!.CurHP));
      const bad = await session.client.callTool({ name: 'exile_eval', arguments: { expr: 'Player.GetComponent<Life>().CurHP)' } });
      expect((bad._meta as Raw)['mcphost/error']).toMatchObject({ code: 'EXPR_SYNTAX', data: { position: 33 } });

      const abort = new AbortController();
      let heavyDone = false;
      const heavy = session.client
        .callTool({ name: 'exile_query', arguments: HEAVY }, { signal: abort.signal })
        .finally(() => (heavyDone = true));
      const position = await session.client.callTool({ name: 'exile_eval', arguments: { expr: 'Player.Position' } });
      expect(position.structuredContent).toMatchObject({ X: raw.roots.Player.Position.X });
      expect(heavyDone).toBe(false);
      abort.abort(new Error('the user gave up'));
      await expect(heavy).rejects.toThrow();
      // The cancel reached the evaluation thread: both threads answer again.
      const again = await Promise.all([1, 2].map(() => session.client.callTool({ name: 'exile_eval', arguments: { expr: 'Player.Id' } })));
      expect(again.map((r) => r.isError ?? false)).toEqual([false, false]);
    } finally {
      await session.close();
    }
  });

  it('over HTTP: explore answers with the HUD shapes', async () => {
    const server = await startHttp(['--plugins', 'exile'], { cwd: dir.dir });
    try {
      const client = await server.connect();
      const life = await client.callTool({ name: 'exile_explore', arguments: { target: 'type:Life' } });
      expect(life.structuredContent).toEqual(raw.types['ExileCore.PoEMemory.Components.Life']);
    } finally {
      await server.stop();
    }
  });
});

describe('mcphost exile:snapshot', () => {
  let hud: FakeHud;
  beforeAll(async () => {
    // Small: the binary's recording path is what is tested here; scale is record-replica's and the bench's.
    hud = await startReplicaHud({ entities: 8, modules: 4 });
  });
  afterAll(() => hud?.stop());

  it('records the replica HUD into a file that answers as the HUD does, within its budget, and says what the budget cut', async () => {
    // The roots given both ways the flag takes them (comma-separated, repeated): the default set, in order.
    const roots = ['--roots', 'GameController,Player,Entities', '--roots', 'IngameState,IngameUi,Camera'];
    const result = await runCli(['exile:snapshot', '--out', 'recorded.json', ...roots, '--url', hud.url, '--max-calls', '60'], {
      cwd: dir.dir,
      timeout: 60_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(dir.dir, 'recorded.json'), 'utf8'));
    const stats = (await (await fetch(hud.url.replace('/mcp', '/stats'))).json()) as { explore: number };
    expect(doc.source).toMatchObject({
      url: hud.url,
      roots: ['GameController', 'Player', 'Entities', 'IngameState', 'IngameUi', 'Camera'],
      complete: false,
      used: { calls: stats.explore },
      cut: { reason: 'maxCalls', objects: expect.any(Number) },
    });
    expect(stats.explore).toBeLessThanOrEqual(60 + 8);
    expect(result.stdout).toMatch(new RegExp(`^wrote ${path.join(dir.dir, 'recorded.json')} .* ${stats.explore} calls`));
    expect(result.stderr).toMatch(/the --max-calls budget cut \d+ objects \(recorded as stubs\), e\.g\. \w/);
    // stderr is a pipe here: no progress lines (a terminal gets one redrawn line).
    expect(result.stderr).not.toMatch(/progress|% of the budget/);
    // Breadth-first: what is nearest the roots was recorded before the budget ran out.
    const offline = createSnapshotProvider(parseSnapshot(doc));
    for (const expr of ['Player.Pos', 'Player.Id', 'Camera.Position'])
      expect(await offline.eval({ expr, depth: 2 }, ctx()), expr).toEqual(await fetchEval(hud.url, expr));
  }, 90_000);
});

/** The live HUD's eval answer, asked directly over MCP. */
async function fetchEval(url: string, expr: string): Promise<unknown> {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const client = new Client({ name: 'direct', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const answer = await client.callTool({ name: 'eval', arguments: { expr, depth: 2 } });
    return JSON.parse((answer.content as Array<{ text: string }>)[0].text);
  } finally {
    await client.close();
  }
}
