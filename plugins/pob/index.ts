// pob: Path of Building builds. The XML tools (decode, encode, analyze, compare) always work;
// the pob_lua_* tools, listed when lua.enabled is set, compute through PoB itself: a long-lived
// luajit running the project's Lua server over an unmodified PoB checkout (or the pob-api fork's
// own stdio API), or a PoB GUI serving the fork's TCP API.
import { defineBackend, type Backend, type ToolDef } from '../../src/backend/index.js';
import { PobBridge } from './bridge.js';
import { configEnv, configSchema, type PobConfig } from './config.js';
import { cachedHealth, pobHealth } from './health.js';
import { luaTools } from './lua-tools.js';
import { xmlTools } from './xml-tools.js';

export default function createPobBackend(): Backend<PobConfig> {
  let bridge: PobBridge | undefined;
  let health: (() => ReturnType<typeof pobHealth>) | undefined;
  return defineBackend<PobConfig>({
    name: 'pob',
    version: '0.1.0',
    description:
      'Path of Building builds: read, compare and encode build XML and share codes; live stats, tree edits and what-ifs through PoB itself (luajit)',
    configSchema,
    env: configEnv,
    tools: (ctx) => {
      const tools: ToolDef<PobConfig, any>[] = [...xmlTools];
      if (ctx.config.lua.enabled) tools.push(...luaTools(ctx.config, () => (bridge ??= new PobBridge(ctx.config, ctx.logger))));
      return tools;
    },
    health: (ctx) => {
      health ??= cachedHealth(() =>
        pobHealth(ctx.config, ctx.config.lua.enabled ? (bridge ??= new PobBridge(ctx.config, ctx.logger)) : bridge),
      );
      return health();
    },
    async stop() {
      await bridge?.close();
    },
  });
}
