// The pob_lua_* tools: live calculations by PoB itself, on the pool of PoB workers. Inputs are
// checked here with zod before anything reaches Lua. Every tool that works on a build takes an
// optional build_id; the tools that change a build answer the new one (lua-calls.ts).
import * as z from 'zod';
import { defineTool, structured, ToolError, UnavailableError, type ToolDef } from '../../../src/backend/index.js';
import { readBuildText } from '../build/build-input.js';
import type { PobConfig } from '../config.js';
import { buildIdInput, clientBuild, loadTool, onBuild, type LuaContext } from './lua-calls.js';
import type { PobPool } from './pool.js';
import { encodeShareCode } from '../build/share-code.js';
import { renderVerify, verifyBuild } from './verify.js';

const nodeIds = (what: string) => z.array(z.number().int().positive()).describe(what);
const masteryEffects = z
  .record(z.string().regex(/^\d+$/, 'a mastery node id'), z.number().int().nonnegative())
  .describe('mastery node id → chosen effect id, e.g. {"53738": 48385}');
const fields = z
  .array(z.string().min(1))
  .min(1)
  .optional()
  .describe('stat names to report (PoB names such as Life, TotalEHP, CombinedDPS, Minion.Life); default: a headline set');

const reads = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
const edits = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

const tool = (name: string) => `pob_lua_${name}`;
const luaTool = defineTool<PobConfig>();

export function luaTools(config: PobConfig, getPool: () => PobPool): ToolDef<PobConfig>[] {
  // A call may start a worker, load its build from the store, run, and export what it changed.
  const timeoutMs = config.startTimeoutMs + config.loadTimeoutMs + config.timeoutMs * 2;
  /** One action of PoB's protocol on the call's build. */
  const read =
    (name: string, action = name) =>
    ({ build_id, ...params }: { build_id?: string } & Record<string, unknown>, ctx: LuaContext) =>
      onBuild(getPool(), ctx, tool(name), { build_id, run: (w) => w.call(action, params, tool(name)) });
  const edit =
    (name: string) =>
    ({ build_id, ...params }: { build_id?: string } & Record<string, unknown>, ctx: LuaContext) =>
      onBuild(getPool(), ctx, tool(name), { build_id, mutates: true, run: (w) => w.call(name, params, tool(name)) });
  const tools = [
    luaTool({
      name: 'lua_start',
      title: 'Start PoB',
      description:
        'Starts the Path of Building Lua process (or connects to the PoB GUI) and reports its version; other pob_lua_* tools start it on demand.',
      input: z.object({}),
      annotations: { ...reads, idempotentHint: true },
      task: 'optional',
      handler: async (_args, ctx) => {
        const pool = getPool();
        await pool.start(ctx.progress);
        const { value: version } = await pool.run({
          client: ctx.client.caller,
          tool: tool('start'),
          signal: ctx.signal,
          progress: ctx.progress,
          run: (w) => w.call('version', {}, tool('start')),
        });
        return { ...pool.status(), version };
      },
    }),
    luaTool({
      name: 'lua_stop',
      title: 'Stop PoB',
      description:
        "Drops this client's build. From the host's own user (stdio, a one-shot `mcphost call`) it also stops the PoB worker processes once their calls in progress end (other clients' builds reload from the build store on their next call); a client over HTTP shares the workers with others, so for it only its own build is dropped. Safe to call when nothing runs. With a PoB GUI (tcp) the operator's stop only disconnects: PoB keeps running with its build.",
      input: z.object({}),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      handler: async (_args, ctx) => {
        const mine = clientBuild(ctx.client);
        const released = mine.id !== undefined;
        Object.assign(mine, { id: undefined, failed: undefined });
        // The workers are shared by every client: one over the network may let go of what is its
        // own, but stopping them (a restart for everyone) is the operator's, who runs the host.
        if (ctx.client.remote) return { stopped: false, released };
        const pool = getPool();
        const was = await pool.stop();
        return pool.mode === 'tcp' ? { stopped: false, disconnected: was } : { stopped: was };
      },
    }),
    luaTool({
      name: 'lua_load_build',
      title: 'Load a build into PoB',
      description:
        'Loads a build into PoB, which recalculates it, and answers its build_id (derived from the XML) with the build info; later pob_lua_* tools of this client work on this build, and any client passing the build_id does too. With build_id instead of XML, makes that stored build this client’s.',
      input: z
        .object({
          build_xml: z.string().min(1).optional().describe('build XML, or the path of a file holding it'),
          code: z.string().min(1).optional().describe('share code, or the path of a file holding one'),
          build_id: buildIdInput.describe('a build_id answered before (by this host or one sharing its build store)'),
          name: z.string().min(1).optional().describe('name PoB gives the build (a label: it is not part of the build_id)'),
        })
        .refine((a) => [a.build_xml, a.code, a.build_id].filter((v) => v !== undefined).length === 1, {
          message: 'give exactly one of build_xml, code or build_id',
        }),
      annotations: edits,
      // PoB takes seconds to load a build (more to start): a client that follows tasks polls it.
      task: 'optional',
      handler: (args, ctx) => loadTool(getPool(), ctx, args),
    }),
    luaTool({
      name: 'lua_get_stats',
      title: 'PoB stats',
      description:
        "PoB's computed stats of the loaded build (DPS, life, energy shield, resistances, …): every numeric stat (600-700), or the named fields.",
      input: z.object({
        build_id: buildIdInput,
        fields,
        display: z.boolean().optional().describe("also list PoB's sidebar stats with their labels"),
      }),
      annotations: reads,
      handler: ({ build_id, fields: f, display }, ctx) =>
        read('get_stats')({ build_id, ...(f ? { fields: f } : {}), ...(display ? { display } : {}) }, ctx),
    }),
    luaTool({
      name: 'lua_get_tree',
      title: 'PoB passive tree',
      description:
        'The passive tree of the loaded build: version, class, ascendancy, allocated node ids, masteries, keystones and notables, jewels, points, tree URL.',
      input: z.object({ build_id: buildIdInput }),
      annotations: reads,
      handler: read('get_tree'),
    }),
    luaTool({
      name: 'lua_set_tree',
      title: 'Replace the passive tree',
      description: 'Sets the exact allocated node set (and class, ascendancy, masteries), recalculates, and reports what changed.',
      input: z.object({
        build_id: buildIdInput,
        classId: z
          .number()
          .int()
          .min(0)
          .max(6)
          .describe('class id (0 Scion, 1 Marauder, 2 Ranger, 3 Witch, 4 Duelist, 5 Templar, 6 Shadow)'),
        ascendClassId: z.number().int().min(0).describe('ascendancy id within the class (0 = none)'),
        secondaryAscendClassId: z.number().int().min(0).optional().describe('secondary ascendancy id (0 = none)'),
        nodes: nodeIds('allocated node ids'),
        masteryEffects: masteryEffects.optional(),
        treeVersion: z
          .string()
          .regex(/^\d+_\d+(_\w+)?$/, 'a tree version such as 3_26')
          .optional()
          .describe('tree version such as 3_26 (default: the build’s)'),
        fields,
      }),
      annotations: edits,
      handler: edit('set_tree'),
    }),
    luaTool({
      name: 'lua_update_tree_delta',
      title: 'Edit the passive tree',
      description:
        'Allocates nodes along their shortest path and deallocates nodes with what depends on them (as clicking in PoB does), sets mastery effects, recalculates, and reports what changed.',
      input: z
        .object({
          build_id: buildIdInput,
          addNodes: nodeIds('node ids to allocate').optional(),
          removeNodes: nodeIds('node ids to deallocate').optional(),
          masteryEffects: masteryEffects.optional(),
          fields,
        })
        .refine((a) => a.addNodes?.length || a.removeNodes?.length || Object.keys(a.masteryEffects ?? {}).length, {
          message: 'give addNodes, removeNodes or masteryEffects',
        }),
      annotations: edits,
      handler: edit('update_tree_delta'),
    }),
    luaTool({
      name: 'lua_calc_with',
      title: 'What-if calculation',
      description:
        "Computes the build as if nodes were added (with their path) or removed (with their dependants), without changing it; returns before, after and delta. Uses PoB's own tooltip calculator.",
      input: z
        .object({
          build_id: buildIdInput,
          addNodes: nodeIds('node ids to add').optional(),
          removeNodes: nodeIds('node ids to remove').optional(),
          fields,
          useFullDPS: z.boolean().optional().describe('recompute Full DPS too (PoB does by default when the build uses it)'),
        })
        .refine((a) => a.addNodes?.length || a.removeNodes?.length, { message: 'give addNodes or removeNodes' }),
      annotations: reads,
      handler: read('calc_with'),
    }),
    luaTool({
      name: 'lua_export_build',
      title: 'Export the build',
      description: 'The loaded build as PoB saves it (XML with recomputed <PlayerStat> values) and as a share code.',
      input: z.object({ build_id: buildIdInput }),
      annotations: reads,
      handler: async ({ build_id }, ctx) => {
        const { xml } = (await read('export_build', 'export_build_xml')({ build_id }, ctx)) as { xml: string };
        const code = await encodeShareCode(xml);
        return structured(
          { code, xml },
          `share code (${code.length} characters; the XML, ${xml.length} characters, is in the structured result):\n${code}`,
        );
      },
    }),
    luaTool({
      name: 'lua_get_build_info',
      title: 'Build info',
      description:
        'Class, ascendancy, level, bandit/pantheon, main skill, socket groups with gems, and equipped items of the loaded build, as PoB sees them.',
      input: z.object({ build_id: buildIdInput }),
      annotations: reads,
      handler: read('get_build_info'),
    }),
    luaTool({
      name: 'lua_set_level',
      title: 'Set character level',
      description: 'Sets the character level (1-100), recalculates, and reports what changed.',
      input: z.object({ build_id: buildIdInput, level: z.number().int().min(1).max(100).describe('character level'), fields }),
      annotations: edits,
      handler: edit('set_level'),
    }),
    luaTool({
      name: 'lua_get_config',
      title: 'Build configuration',
      description: "The loaded build's configuration inputs (PoB's Configuration tab) and placeholders.",
      input: z.object({ build_id: buildIdInput }),
      annotations: reads,
      handler: read('get_config'),
    }),
    luaTool({
      name: 'lua_set_config',
      title: 'Change configuration',
      description:
        'Sets configuration inputs by their PoB variable names (null clears one), recalculates, and reports what changed. Unknown names or wrong types change nothing.',
      input: z.object({
        build_id: buildIdInput,
        input: z
          .record(z.string().min(1), z.union([z.boolean(), z.number(), z.string(), z.null()]))
          .refine((r) => Object.keys(r).length > 0, { message: 'name at least one option' })
          .describe('option name → value, e.g. {"enemyIsBoss": "Pinnacle", "useFrenzyCharges": true}; null clears'),
        fields,
      }),
      annotations: edits,
      handler: ({ build_id, input, fields: f }, ctx) => {
        const set = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null));
        const clear = Object.entries(input)
          .filter(([, v]) => v === null)
          .map(([k]) => k);
        return edit('set_config')({ build_id, input: set, clear, ...(f ? { fields: f } : {}) }, ctx);
      },
    }),
    luaTool({
      name: 'lua_verify_build',
      title: 'Check PoB parity',
      description:
        "Loads a build, recomputes it, and puts each <PlayerStat> value saved in it beside PoB's recomputed value with the relative difference: tells whether the PoB that saved the build and this one agree. The build becomes this client's (its build_id is answered).",
      input: z
        .object({
          build: z.string().min(1).optional().describe('build XML, a share code, or the path of a file holding either'),
          build_id: buildIdInput.describe('a stored build instead of `build`'),
          tolerance: z.number().min(0).max(1).default(1e-6).describe('largest relative difference counted as equal'),
        })
        .refine((a) => (a.build === undefined) !== (a.build_id === undefined), { message: 'give exactly one of build or build_id' }),
      annotations: edits,
      task: 'optional',
      handler: async ({ build, build_id, tolerance }, ctx) => {
        const { report, buildId } = await verifyBuild(getPool(), ctx, { build, build_id }, tolerance);
        return structured({ ...report, ...(buildId ? { build_id: buildId } : {}) }, renderVerify(report));
      },
    }),
  ];
  for (const def of tools) def.timeoutMs = timeoutMs;
  return config.game === 'poe2' ? tools.map(withoutPoe2Engine) : tools.map(refusingPoe2Builds);
}

/**
 * game: poe2 — the engine for Path of Exile 2 is PathOfBuilding-PoE2, whose headless mode mcphost
 * does not drive yet (and which was not run here): each engine tool says so, and which tools do
 * read PoE2 builds.
 */
function withoutPoe2Engine(def: ToolDef<PobConfig>): ToolDef<PobConfig> {
  return {
    ...def,
    handler: () => {
      throw new UnavailableError(
        `pob_${def.name}: plugins.pob.game is poe2, and mcphost does not run the PathOfBuilding-PoE2 engine (it was not run here): ` +
          'pob_decode, pob_encode, pob_analyze_build and pob_compare_builds read and write PoE2 builds without it',
        { data: { game: 'poe2' } },
      );
    },
  };
}

/** game: poe1 (the default) — a <PathOfBuilding2> build given to PoE1's engine is refused with the reason, before PoB sees it. */
function refusingPoe2Builds(def: ToolDef<PobConfig>): ToolDef<PobConfig> {
  return {
    ...def,
    handler: async (args, ctx) => {
      const given = args as { build_xml?: unknown; code?: unknown; build?: unknown };
      const text = [given.build_xml, given.code, given.build].find((v): v is string => typeof v === 'string');
      if (text !== undefined) {
        const build = await readBuildText(
          text,
          given.build_xml !== undefined ? 'build_xml' : given.code !== undefined ? 'code' : 'build',
          ctx.files,
        );
        if (/^\s*(?:<\?xml[^>]*>\s*)?<PathOfBuilding2[\s>/]/.test(build.xml.replace(/^\uFEFF/, '')))
          throw new ToolError(
            `pob_${def.name}: this is a Path of Exile 2 build (<PathOfBuilding2>), and the engine here is Path of Building for Path of Exile 1; ` +
              'pob_analyze_build and pob_compare_builds read it without an engine',
            { code: 'WRONG_GAME', data: { game: 'poe2' } },
          );
      }
      return def.handler(args, ctx);
    },
  };
}
