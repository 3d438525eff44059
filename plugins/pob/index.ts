// pob: Path of Building builds. The XML tools (decode, encode, analyze, compare) always work;
// the pob_lua_* tools, listed when lua.enabled is set, compute through PoB itself: a pool of
// long-lived luajit workers running the project's Lua server over an unmodified PoB checkout (or
// the pob-api fork's own stdio API), or a PoB GUI serving the fork's TCP API. Builds are values
// kept in a content-addressed store; each client's own build is in its ctx.client.state.
// build/ is what a build says without PoB (XML, share codes, analysis, the views); live/ is the
// engine (workers, the Lua server, the pob-api fork's API, the build store). live/ may import
// build/, never the reverse.
import { defineBackend, type Backend, type BackendContext, type ToolDef } from '../../src/backend/index.js';
import { configEnv, configSchema, type PobConfig } from './config.js';
import { cachedHealth, pobHealth } from './live/health.js';
import { luaTools } from './live/lua-tools.js';
import { PobPool } from './live/pool.js';
import { viewResources } from './build/views.js';
import { xmlTools } from './build/xml-tools.js';

export default function createPobBackend(): Backend<PobConfig> {
  let pool: PobPool | undefined;
  const poolOf = (ctx: BackendContext<PobConfig>) => (pool ??= new PobPool(ctx.config, ctx.logger, ctx.cacheDir, ctx.withheld));
  let health: (() => ReturnType<typeof pobHealth>) | undefined;
  return defineBackend<PobConfig>({
    name: 'pob',
    version: '0.1.0',
    description:
      'Path of Building builds: read, compare and encode build XML and share codes; live stats, tree edits and what-ifs through PoB itself (luajit)',
    configSchema,
    env: configEnv,
    tools: (ctx) => {
      const tools: ToolDef<PobConfig>[] = [...xmlTools];
      if (ctx.config.lua.enabled) {
        tools.push(...luaTools(ctx.config, () => poolOf(ctx)));
        // For monitoring (GET /metrics: mcphost_pob_queue_length); 0 until the pool exists.
        ctx.gauge?.('queue_length', 'PoB calls waiting for a worker', () => pool?.queued ?? 0);
      }
      return tools;
    },
    resources: viewResources,
    health: (ctx) => {
      health ??= cachedHealth(() => pobHealth(ctx.config, ctx.config.lua.enabled ? poolOf(ctx) : pool, ctx.withheld));
      return health();
    },
    async stop() {
      await pool?.close();
    },
  });
}
