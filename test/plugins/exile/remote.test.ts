// The exile plugin in remote mode against the fake HUD, through the real `mcphost call` and
// `mcphost serve`: arguments validated and completed locally, results passed through unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { runCli } from '../../helpers/cli.js';
import { connectStdio, type StdioSession } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { freePort, journalLines, textOf, waitFor, writeConfig } from '../../upstream/helpers.js';
import { startHud, type FakeHud } from '../../fixtures/exile-hud/start.js';

describe('exile (remote mode)', () => {
  const tmp = tempDir();
  const journal = path.join(tmp.dir, 'hud.log');
  let hud: FakeHud;
  const calls = () => journalLines(journal).filter((l) => !l.startsWith('eval cancelled'));

  beforeAll(async () => {
    hud = await startHud({ journal });
    writeConfig(tmp.dir, { plugins: { exile: { url: hud.url } } });
  });
  afterAll(() => hud?.stop());

  it('answers `mcphost call exile eval --expr "Player.Position"`', async () => {
    const result = await runCli(['call', 'exile', 'eval', '--expr', 'Player.Position'], { cwd: tmp.dir });
    expect(result).toMatchObject({ exitCode: 0 });
    expect(JSON.parse(result.stdout)).toEqual({ X: 100.5, Y: 200.3, Z: 0 });
    // The default depth was applied before forwarding.
    expect(calls().at(-1)).toBe('eval {"expr":"Player.Position","depth":2}');
  });

  it('takes the HUD address from EXILE_URL or --url', async () => {
    const elsewhere = tempDir();
    const viaEnv = await runCli(['call', 'exile', 'eval', '--expr', 'Player.GetComponent<Life>().CurHP'], {
      cwd: elsewhere.dir,
      env: { ...process.env, HOME: elsewhere.dir, EXILE_URL: hud.url },
    });
    expect(viaEnv.stdout).toBe('4523');
    const viaFlag = await runCli(['call', 'exile', 'eval', '--expr', 'Entities[2].RenderName', '--url', hud.url], { cwd: elsewhere.dir });
    expect(viaFlag.stdout).toBe('"Town Portal"');
  });

  it('rejects bad arguments locally, naming the field, without calling the HUD', async () => {
    const before = calls().length;
    const tooDeep = await runCli(['call', 'exile', 'eval', '--expr', 'Player', '--depth', '99'], { cwd: tmp.dir });
    expect(tooDeep.exitCode).toBe(1);
    expect(tooDeep.stderr).toMatch(/depth: expected number to be <=10/);
    const missing = await runCli(['call', 'exile', 'query', '--where', 'IsHostile'], { cwd: tmp.dir });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/from/);
    expect(calls().length).toBe(before);
  });

  it('passes the HUD’s errors through', async () => {
    const result = await runCli(['call', 'exile', 'eval', '--expr', 'Nobody.Position'], { cwd: tmp.dir });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('unknown root "Nobody"');
  });

  describe('served over MCP', () => {
    let session: StdioSession;
    let direct: Client;
    beforeAll(async () => {
      session = await connectStdio([], { cwd: tmp.dir });
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
          {
            from: 'Entities',
            where: 'Distance < 50',
            orderBy: 'Distance',
            select: 'new { RenderName, Distance }',
            take: 100,
            skip: 0,
          },
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
    // Long enough for a loaded machine to connect first; the call itself never ends on its own.
    writeConfig(dir.dir, { plugins: { exile: { url: hud.url, timeoutMs: 1500 } } });
    const result = await runCli(['call', 'exile', 'eval', '--expr', 'Wait(20000)'], { cwd: dir.dir });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toMatch(/timed out after 1500 ms/);
    expect(journalLines(journal)).toContain('eval {"expr":"Wait(20000)","depth":2}');
    await waitFor(() => journalLines(journal).includes('eval cancelled'), 'the HUD to see the cancel');
  });

  it('says what to start when the HUD is not running', async () => {
    const dir = tempDir();
    const port = await freePort();
    writeConfig(dir.dir, { plugins: { exile: { url: `http://127.0.0.1:${port}/mcp` } } });
    const result = await runCli(['call', 'exile', 'eval', '--expr', 'Player.Position'], { cwd: dir.dir });
    expect(result.exitCode).toBe(4);
    expect(result.stderr.replace(/\s*›\s*/g, ' ')).toContain(
      `ExileApi HUD not reachable at http://127.0.0.1:${port}/mcp: start Path of Exile with ExileApi and its MCP server plugin, or set plugins.exile.snapshot`,
    );
    const doctor = await runCli(['doctor'], { cwd: dir.dir });
    expect(doctor.exitCode).toBe(4);
    expect(doctor.stdout).toContain('✖ exile');
    const up = await runCli(['doctor'], { cwd: tmp.dir });
    expect(up.stdout).toContain(`✔ exile 0.1.0 HUD exile-api-mcp 1.0.0 is up at ${hud.url}`);
  });

  it('does not contact the HUD when a snapshot is configured', async () => {
    const dir = tempDir();
    const before = calls().length;
    writeConfig(dir.dir, { plugins: { exile: { url: hud.url, snapshot: 'recorded.json' } } });
    const result = await runCli(['call', 'exile', 'eval', '--expr', 'Player.Position'], { cwd: dir.dir });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr.replace(/\s*›\s*/g, '')).toContain(path.join(dir.dir, 'recorded.json'));
    expect(calls().length).toBe(before);
  });
});
