// createRemoteProvider (plugins/exile/remote.ts) on its own, as `mcphost exile:snapshot` uses it:
// data in the HUD's response shapes, HUD errors as ToolErrors, a clear error when the HUD is down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteProvider, type RemoteProvider } from '../../../plugins/exile/remote.ts';
import { evalInput, exploreInput, queryInput } from '../../../plugins/exile/schemas.ts';
import { freePort } from '../../upstream/helpers.js';
import { startHud, type FakeHud } from '../../fixtures/exile-hud/start.js';

describe('createRemoteProvider', () => {
  let hud: FakeHud;
  let provider: RemoteProvider;
  const ctx = () => ({ signal: new AbortController().signal });

  beforeAll(async () => {
    hud = await startHud();
    provider = createRemoteProvider({ url: hud.url, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    await provider?.close();
    await hud?.stop();
  });

  it('returns the HUD’s data for eval, explore and query', async () => {
    expect(await provider.eval(evalInput.parse({ expr: 'Player.Position' }), ctx())).toEqual({ X: 100.5, Y: 200.3, Z: 0 });
    const player = (await provider.explore(exploreInput.parse({ target: 'Player' }), ctx())) as {
      path: string;
      members: Array<{ name: string; access: string }>;
      methods: Array<{ name: string }>;
    };
    expect(player.path).toBe('Player');
    expect(player.members.map((m) => m.name)).toEqual(expect.arrayContaining(['Id', 'Position', '_components']));
    expect(player.members.find((m) => m.name === '_components')?.access).toBe('private');
    expect(player.methods.map((m) => m.name)).toEqual(['IsValid', 'GetComponent']);
    const hostile = (await provider.query(
      queryInput.parse({ from: 'Entities', where: 'IsHostile', select: 'new { Id }', orderBy: 'Id desc' }),
      ctx(),
    )) as { items: unknown[] };
    expect(hostile.items).toEqual([{ Id: 12 }, { Id: 11 }]);
  });

  it('turns a HUD error into a ToolError with its message', async () => {
    await expect(provider.eval(evalInput.parse({ expr: 'Player.Nope' }), ctx())).rejects.toMatchObject({
      code: 'HUD_ERROR',
      message: expect.stringContaining('has no member Nope'),
    });
  });

  it('reports a HUD that is not running as unavailable, naming the URL', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const down = createRemoteProvider({ url });
    try {
      await expect(down.eval(evalInput.parse({ expr: 'Player' }), ctx())).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        message: expect.stringContaining(`ExileApi HUD not reachable at ${url}`),
      });
      expect(await down.check()).toMatchObject({ ok: false });
    } finally {
      await down.close();
    }
  });

  it('times out a call after timeoutMs', async () => {
    const quick = createRemoteProvider({ url: hud.url, timeoutMs: 200 });
    try {
      await expect(quick.eval(evalInput.parse({ expr: 'Wait(10000)' }), ctx())).rejects.toMatchObject({
        code: 'TIMEOUT',
        message: expect.stringMatching(/did not answer within 200 ms/),
      });
    } finally {
      await quick.close();
    }
  });
});
