// The exile plugin in remote mode against the fake HUD (a real HTTP server process), through the
// host in-process: `mcphost call`'s path (callInProcess), `mcphost serve`'s (serveInProcess, the
// official SDK client), and `doctor`'s. Arguments are validated and completed locally, results pass
// through unchanged. The real binary is exercised once per transport in snapshot-e2e.test.ts.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { doctorReport } from '../../../src/app/inspect.ts';
import { isolatedEnv } from '../../helpers/cli.js';
import { callInProcess, serveInProcess, type InProcessSession } from '../../helpers/in-process.js';
import { tempDir } from '../../helpers/tmp.js';
import { freePort, journalLines, textOf, waitFor, writeConfig } from '../../upstream/helpers.js';
import { startHud, type FakeHud } from '../../fixtures/exile-hud/start.js';

const flag = (name: string, value: string) => ({ name, value, text: `--${name}` });
const text = (outcome: { result: { content: unknown[] } }) => (outcome.result.content[0] as { text: string }).text;

describe('exile (remote mode)', () => {
  const tmp = tempDir();
  const journal = path.join(tmp.dir, 'hud.log');
  let hud: FakeHud;
  const calls = () => journalLines(journal).filter((l) => !l.startsWith('eval cancelled'));
  const call = (
    tool: string,
    args: Record<string, unknown>,
    options: { cwd?: string; env?: Record<string, string | undefined>; flags?: any[] } = {},
  ) => callInProcess({ cwd: options.cwd ?? tmp.dir, env: options.env, plugin: 'exile', tool, args, flags: options.flags });

  beforeAll(async () => {
    hud = await startHud({ journal });
    writeConfig(tmp.dir, { plugins: { exile: { url: hud.url } } });
  });
  afterAll(() => hud?.stop());

  it('answers `mcphost call exile eval --expr "Player.Position"`, with the default depth filled in', async () => {
    const outcome = await call('eval', { expr: 'Player.Position' });
    expect(outcome.error).toBeUndefined();
    expect(JSON.parse(text(outcome))).toEqual({ X: 100.5, Y: 200.3, Z: 0 });
    expect(calls().at(-1)).toBe('eval {"expr":"Player.Position","depth":2}');
  });

  it('takes the HUD address from EXILE_URL or --url', async () => {
    const elsewhere = tempDir();
    const viaEnv = await call(
      'eval',
      { expr: 'Player.GetComponent<Life>().CurHP' },
      { cwd: elsewhere.dir, env: isolatedEnv(elsewhere.dir, { EXILE_URL: hud.url }) },
    );
    expect(text(viaEnv)).toBe('4523');
    const viaFlag = await call('eval', { expr: 'Entities[2].RenderName' }, { cwd: elsewhere.dir, flags: [flag('url', hud.url)] });
    expect(text(viaFlag)).toBe('"Town Portal"');
  });

  it('rejects bad arguments locally, naming the field, without calling the HUD', async () => {
    const before = calls().length;
    const tooDeep = await call('eval', { expr: 'Player', depth: 99 });
    expect(tooDeep.error).toMatchObject({ kind: 'invalid_arguments', message: expect.stringMatching(/depth: expected number to be <=10/) });
    const missing = await call('query', { where: 'IsHostile' });
    expect(missing.error).toMatchObject({ kind: 'invalid_arguments', message: expect.stringMatching(/from/) });
    expect(calls().length).toBe(before);
  });

  it('passes the HUD’s errors through', async () => {
    const outcome = await call('eval', { expr: 'Nobody.Position' });
    expect(outcome.error).toMatchObject({ kind: 'tool_error', message: expect.stringContaining('unknown root "Nobody"') });
  });

  describe('served over MCP', () => {
    let session: InProcessSession;
    let direct: Client;
    beforeAll(async () => {
      session = await serveInProcess({ cwd: tmp.dir });
      direct = new Client({ name: 'direct', version: '1' });
      await direct.connect(new StreamableHTTPClientTransport(new URL(hud.url)));
    });
    afterAll(async () => {
      await direct?.close();
      await session?.close();
    });

    it('publishes exile_explore, exile_eval and exile_query with the HUD’s parameters and defaults', async () => {
      const { tools } = await session.client.listTools();
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(Object.keys(byName).sort()).toEqual(['exile_eval', 'exile_explore', 'exile_query']);
      expect(byName.exile_explore.inputSchema.properties).toMatchObject({
        target: { type: 'string', default: '' },
        depth: { type: 'integer', default: 1 },
        includePrivate: { type: 'boolean', default: true },
        limit: { type: 'integer', default: 50 },
      });
      expect(byName.exile_eval.inputSchema.required).toEqual(['expr']);
      expect(byName.exile_query.inputSchema).toMatchObject({
        required: ['from'],
        properties: { take: { default: 100 }, skip: { default: 0 } },
      });
    });

    it('returns exactly what the HUD returns', async () => {
      const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
        ['explore', { target: 'Player', depth: 1 }, { target: 'Player', depth: 1, includePrivate: true, limit: 50 }],
        ['explore', { target: 'search:*HP*' }, { target: 'search:*HP*', depth: 1, includePrivate: true, limit: 50 }],
        [
          'query',
          { from: 'Entities', where: 'Distance < 50', orderBy: 'Distance', select: 'new { RenderName, Distance }' },
          { from: 'Entities', where: 'Distance < 50', orderBy: 'Distance', select: 'new { RenderName, Distance }', take: 100, skip: 0 },
        ],
        ['eval', { expr: 'Player?.GetComponent<Life>()?.MaxHP' }, { expr: 'Player?.GetComponent<Life>()?.MaxHP', depth: 2 }],
      ];
      for (const [tool, args, completed] of cases) {
        const viaHost = await session.client.callTool({ name: `exile_${tool}`, arguments: args });
        const fromHud = await direct.callTool({ name: tool, arguments: completed });
        expect(viaHost).toEqual(fromHud);
        const forwarded = calls().at(-2)!;
        expect(forwarded.slice(0, forwarded.indexOf(' '))).toBe(tool);
        expect(JSON.parse(forwarded.slice(forwarded.indexOf(' ') + 1))).toEqual(completed);
      }
      const query = await session.client.callTool({
        name: 'exile_query',
        arguments: { from: 'Entities', where: 'Distance < 50', orderBy: 'Distance', select: 'new { RenderName }' },
      });
      expect(JSON.parse(textOf(query)).items).toEqual([{ RenderName: 'Town Portal' }, { RenderName: 'Hillock' }, { RenderName: 'Nessa' }]);
    });
  });

  it('cancels the HUD call when plugins.exile.timeoutMs runs out', async () => {
    const dir = tempDir();
    writeConfig(dir.dir, { plugins: { exile: { url: hud.url, timeoutMs: 1500 } } });
    const outcome = await call('eval', { expr: 'Wait(20000)' }, { cwd: dir.dir });
    expect(outcome.error).toMatchObject({ kind: 'timeout', message: expect.stringMatching(/timed out after 1500 ms/) });
    expect(journalLines(journal)).toContain('eval {"expr":"Wait(20000)","depth":2}');
    await waitFor(() => journalLines(journal).includes('eval cancelled'), 'the HUD to see the cancel');
  });

  it('says what to start when the HUD is not running, and doctor agrees', async () => {
    const dir = tempDir();
    const port = await freePort();
    writeConfig(dir.dir, { plugins: { exile: { url: `http://127.0.0.1:${port}/mcp` } } });
    const outcome = await call('eval', { expr: 'Player.Position' }, { cwd: dir.dir });
    expect(outcome.error?.kind).toBe('unavailable');
    expect(outcome.error?.message).toContain(
      `ExileApi HUD not reachable at http://127.0.0.1:${port}/mcp: start Path of Exile with ExileApi and its MCP server plugin, or set plugins.exile.snapshot`,
    );
    const down = await doctorReport({ cwd: dir.dir, env: isolatedEnv(dir.dir) as NodeJS.ProcessEnv });
    expect(down.plugins).toMatchObject([{ name: 'exile', ok: false }]);
    const up = await doctorReport({ cwd: tmp.dir, env: isolatedEnv(tmp.dir) as NodeJS.ProcessEnv });
    expect(up.plugins).toMatchObject([{ name: 'exile', ok: true, message: `HUD exile-api-mcp 1.0.0 is up at ${hud.url}` }]);
  });

  it('does not contact the HUD when a snapshot is configured', async () => {
    const dir = tempDir();
    const before = calls().length;
    writeConfig(dir.dir, { plugins: { exile: { url: hud.url, snapshot: 'recorded.json' } } });
    const outcome = await call('eval', { expr: 'Player.Position' }, { cwd: dir.dir });
    expect(outcome.error?.kind).toBe('unavailable');
    expect(outcome.error?.message).toContain(path.join(dir.dir, 'recorded.json'));
    expect(calls().length).toBe(before);
  });
});
