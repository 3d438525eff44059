// exile: ExileApi's live game-object graph — explore, eval, query (Dynamic LINQ). Remote mode
// forwards to the HUD's MCP server; with `snapshot` set, a recorded snapshot answers instead.
// Arguments are validated here (defaults applied) before they are forwarded.
import { existsSync } from 'node:fs';
import * as z from 'zod';
import {
  configPath,
  defineBackend,
  defineTool,
  structured,
  type Backend,
  type BackendContext,
  type CallContext,
  type HealthReport,
  type ToolResult,
} from '../../src/backend/index.js';
import type { ExileProvider, ProviderCallContext } from './provider.js';
import { recordCommand } from './record-command.js';
import { createRemoteProvider, type HudArgs, type HudTool, type RemoteProvider } from './remote.js';
import { evalInput, exploreInput, queryInput } from './schemas.js';

const configSchema = z.object({
  url: z
    .url({ protocol: /^https?$/ })
    .default('http://127.0.0.1:5099/mcp')
    .describe('the HUD’s MCP endpoint (remote mode)'),
  snapshot: configPath().optional().describe('a recorded snapshot file: answer from it instead of the live HUD'),
  timeBudgetMs: z.number().int().positive().max(600_000).default(2000).describe('time budget per call in snapshot mode, in milliseconds'),
  workers: z
    .number()
    .int()
    .min(0)
    .max(8)
    .default(2)
    .describe('snapshot mode: evaluation threads, each with its own copy of the snapshot (0: evaluate in the host thread)'),
});

type Config = z.output<typeof configSchema>;
type LocalTools = { [K in HudTool]: (args: HudArgs[K], ctx: ProviderCallContext) => Promise<unknown> };

/** A snapshot provider's data rendered as a result: an object as structured content, anything else as text. */
function render(data: unknown): ToolResult {
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) return structured(data as Record<string, unknown>);
  return { content: [{ type: 'text', text: typeof data === 'string' ? data : JSON.stringify(data, null, 2) }] };
}

export default function exile(): Backend<Config> {
  let provider: ExileProvider | undefined;
  const isRemote = (p: ExileProvider): p is RemoteProvider => typeof (p as RemoteProvider).call === 'function';

  /** `threads` caps the evaluation threads (a health check loads the snapshot once, in one). */
  async function open(ctx: BackendContext<Config>, threads = Infinity): Promise<ExileProvider> {
    const { snapshot, timeBudgetMs, url, workers } = ctx.config;
    if (!snapshot) return createRemoteProvider({ url, logger: ctx.logger });
    const { openSnapshotProvider } = await import('./snapshot/index.js');
    return openSnapshotProvider(snapshot, { timeBudgetMs, workers: Math.min(workers, threads) });
  }

  /** `K` ties a tool's name to its arguments, so `local[tool]` is called with the right ones (TS 4.6's correlated unions). */
  async function run<K extends HudTool>(tool: K, args: HudArgs[K], ctx: CallContext<Config>): Promise<ToolResult> {
    const p = provider!;
    if (isRemote(p)) return p.call(tool, args, ctx);
    const local: LocalTools = p;
    return render(await local[tool](args, ctx));
  }

  const annotations = { readOnlyHint: true, openWorldHint: false };
  const tool = defineTool<Config>();

  return defineBackend<Config>({
    name: 'exile',
    version: '0.1.0',
    description:
      'ExileApi game-object graph (Path of Exile HUD): the player (life, mana, buffs, experience), monsters and items around, the area, the UI — ' +
      'explore, eval, query — live, or from a recorded snapshot',
    configSchema,
    env: { url: 'EXILE_URL', snapshot: 'EXILE_SNAPSHOT', timeBudgetMs: 'EXILE_TIME_BUDGET_MS', workers: 'EXILE_WORKERS' },
    tools: [
      tool({
        name: 'explore',
        title: 'Explore the game-object graph',
        description:
          'Browse the live game objects (the player, monsters, items on the ground, the area, the UI, inventories), their types and names. target: a path (Player.Components, Entities[0]), type:<TypeName>, or search:<glob>; "" lists the roots ' +
          '(GameController, Player, Entities, IngameState, IngameUi, Camera, Files, Memory). Returns path, type, value, members[] and methods[].',
        input: exploreInput,
        annotations,
        handler: (args, ctx) => run('explore', args, ctx),
      }),
      tool({
        name: 'eval',
        title: 'Evaluate an expression',
        description:
          'Read one value of the game or call a method (the player\'s life, mana, buffs or experience, an entity\'s position): dot paths (Player.Position.X), indexers ([0], ["Life"]), method calls with arguments, generic methods ' +
          '(Player.GetComponent<Life>().CurHP) and ?. null-safe access.',
        input: evalInput,
        annotations,
        handler: (args, ctx) => run('eval', args, ctx),
      }),
      tool({
        name: 'query',
        title: 'Query a collection (Dynamic LINQ)',
        description:
          'Filter, project and sort a collection of game objects (monsters near the player, items on the ground, by rarity or distance) with Dynamic LINQ strings: from "Entities", where "Distance < 50 && IsHostile", ' +
          'select "new { Id, RenderName }", orderBy "Distance", then take / skip.',
        input: queryInput,
        annotations,
        handler: (args, ctx) => run('query', args, ctx),
      }),
    ],
    commands: { snapshot: recordCommand() },
    async start(ctx) {
      provider = await open(ctx);
    },
    async stop() {
      const p = provider;
      provider = undefined;
      await p?.close();
    },
    async health(ctx): Promise<HealthReport> {
      const { snapshot, url } = ctx.config;
      if (snapshot) {
        if (!existsSync(snapshot))
          return {
            ok: false,
            message: `snapshot file not found: ${snapshot}: record one with \`mcphost exile:snapshot\`, or fix plugins.exile.snapshot`,
          };
        // Loading is the only way to know the file is a snapshot; a started backend already did.
        if (!provider) {
          try {
            await (await open(ctx, 1)).close();
          } catch (error) {
            return { ok: false, message: (error as Error).message, detail: { mode: 'snapshot', snapshot } };
          }
        }
        return { ok: true, message: `serving the snapshot ${snapshot}`, detail: { mode: 'snapshot', snapshot } };
      }
      const remote = provider && isRemote(provider) ? provider : createRemoteProvider({ url, logger: ctx.logger });
      try {
        const { ok, message } = await remote.check();
        return { ok, message, detail: { mode: 'remote', url } };
      } finally {
        if (remote !== provider) await remote.close();
      }
    },
  });
}
