// The pob_lua_* tools: live calculations by PoB itself through the bridge. Inputs are checked
// here with zod before anything reaches Lua.
import path from 'node:path';
import * as z from 'zod';
import { defineTool, structured, type ToolDef } from '../../src/backend/index.js';
import type { CallOptions, PobBridge } from './bridge.js';
import { readBuildText } from './build-input.js';
import type { PobConfig } from './config.js';
import { checkBuildXml } from './parse-job.js';
import { encodeShareCode } from './share-code.js';
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

export function luaTools(config: PobConfig, getBridge: () => PobBridge): ToolDef<PobConfig, any>[] {
  // A call may include a start, a planned restart that carries the build over, and the request.
  const timeoutMs = config.startTimeoutMs + config.timeoutMs * 4;
  type Ctx = { signal: AbortSignal; progress?: CallOptions['progress'] };
  const call = (action: string, params: Record<string, unknown>, ctx: Ctx) =>
    getBridge().call(action, params, { signal: ctx.signal, progress: ctx.progress });
  const tools = [
    defineTool({
      name: 'lua_start',
      title: 'Start PoB',
      description:
        'Starts the Path of Building Lua process (or connects to the PoB GUI) and reports its version; other pob_lua_* tools start it on demand.',
      input: z.object({}),
      annotations: { ...reads, idempotentHint: true },
      handler: async (_args, ctx) => {
        await getBridge().start({ signal: ctx.signal, progress: ctx.progress });
        const version = await call('version', {}, ctx);
        return { ...getBridge().status(), version };
      },
    }),
    defineTool({
      name: 'lua_stop',
      title: 'Stop PoB',
      description:
        'Stops the PoB Lua process (the loaded build is dropped); safe to call when it is not running. With a PoB GUI (tcp) it only disconnects: PoB keeps running with its build.',
      input: z.object({}),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      handler: async () => {
        const bridge = getBridge();
        const was = await bridge.stop();
        return bridge.mode === 'tcp' ? { stopped: false, disconnected: was } : { stopped: was };
      },
    }),
    defineTool({
      name: 'lua_load_build',
      title: 'Load a build into PoB',
      description: 'Loads a build into PoB, which recalculates it; later pob_lua_* tools work on this build.',
      input: z
        .object({
          build_xml: z.string().min(1).optional().describe('build XML, or the path of a file holding it'),
          code: z.string().min(1).optional().describe('share code, or the path of a file holding one'),
          name: z.string().min(1).optional().describe('name PoB gives the build'),
        })
        .refine((a) => (a.build_xml === undefined) !== (a.code === undefined), { message: 'give exactly one of build_xml or code' }),
      annotations: edits,
      handler: async ({ build_xml, code, name }, ctx) => {
        const field = build_xml !== undefined ? 'build_xml' : 'code';
        const text = await readBuildText((build_xml ?? code)!, field, ctx.files);
        await checkBuildXml(text.xml, field, ctx.signal);
        const label = name ?? (text.file ? path.basename(text.file).replace(/\.[^.]*$/, '') : undefined);
        return call('load_build_xml', { xml: text.xml, ...(label ? { name: label } : {}) }, ctx);
      },
    }),
    defineTool({
      name: 'lua_get_stats',
      title: 'PoB stats',
      description: "PoB's computed stats of the loaded build: every numeric stat (600-700), or the named fields.",
      input: z.object({ fields, display: z.boolean().optional().describe("also list PoB's sidebar stats with their labels") }),
      annotations: reads,
      handler: ({ fields: f, display }, ctx) => call('get_stats', { ...(f ? { fields: f } : {}), ...(display ? { display } : {}) }, ctx),
    }),
    defineTool({
      name: 'lua_get_tree',
      title: 'PoB passive tree',
      description:
        'The passive tree of the loaded build: version, class, ascendancy, allocated node ids, masteries, keystones and notables, jewels, points, tree URL.',
      input: z.object({}),
      annotations: reads,
      handler: (_args, ctx) => call('get_tree', {}, ctx),
    }),
    defineTool({
      name: 'lua_set_tree',
      title: 'Replace the passive tree',
      description: 'Sets the exact allocated node set (and class, ascendancy, masteries), recalculates, and reports what changed.',
      input: z.object({
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
      handler: (args, ctx) => call('set_tree', args, ctx),
    }),
    defineTool({
      name: 'lua_update_tree_delta',
      title: 'Edit the passive tree',
      description:
        'Allocates nodes along their shortest path and deallocates nodes with what depends on them (as clicking in PoB does), sets mastery effects, recalculates, and reports what changed.',
      input: z
        .object({
          addNodes: nodeIds('node ids to allocate').optional(),
          removeNodes: nodeIds('node ids to deallocate').optional(),
          masteryEffects: masteryEffects.optional(),
          fields,
        })
        .refine((a) => a.addNodes?.length || a.removeNodes?.length || Object.keys(a.masteryEffects ?? {}).length, {
          message: 'give addNodes, removeNodes or masteryEffects',
        }),
      annotations: edits,
      handler: (args, ctx) => call('update_tree_delta', args, ctx),
    }),
    defineTool({
      name: 'lua_calc_with',
      title: 'What-if calculation',
      description:
        "Computes the build as if nodes were added (with their path) or removed (with their dependants), without changing it; returns before, after and delta. Uses PoB's own tooltip calculator.",
      input: z
        .object({
          addNodes: nodeIds('node ids to add').optional(),
          removeNodes: nodeIds('node ids to remove').optional(),
          fields,
          useFullDPS: z.boolean().optional().describe('recompute Full DPS too (PoB does by default when the build uses it)'),
        })
        .refine((a) => a.addNodes?.length || a.removeNodes?.length, { message: 'give addNodes or removeNodes' }),
      annotations: reads,
      handler: (args, ctx) => call('calc_with', args, ctx),
    }),
    defineTool({
      name: 'lua_export_build',
      title: 'Export the build',
      description: 'The loaded build as PoB saves it (XML with recomputed <PlayerStat> values) and as a share code.',
      input: z.object({}),
      annotations: reads,
      handler: async (_args, ctx) => {
        const { xml } = (await call('export_build_xml', {}, ctx)) as { xml: string };
        const code = await encodeShareCode(xml);
        return structured(
          { code, xml },
          `share code (${code.length} characters; the XML, ${xml.length} characters, is in the structured result):\n${code}`,
        );
      },
    }),
    defineTool({
      name: 'lua_get_build_info',
      title: 'Build info',
      description:
        'Class, ascendancy, level, bandit/pantheon, main skill, socket groups with gems, and equipped items of the loaded build, as PoB sees them.',
      input: z.object({}),
      annotations: reads,
      handler: (_args, ctx) => call('get_build_info', {}, ctx),
    }),
    defineTool({
      name: 'lua_set_level',
      title: 'Set character level',
      description: 'Sets the character level (1-100), recalculates, and reports what changed.',
      input: z.object({ level: z.number().int().min(1).max(100).describe('character level'), fields }),
      annotations: edits,
      handler: (args, ctx) => call('set_level', args, ctx),
    }),
    defineTool({
      name: 'lua_get_config',
      title: 'Build configuration',
      description: "The loaded build's configuration inputs (PoB's Configuration tab) and placeholders.",
      input: z.object({}),
      annotations: reads,
      handler: (_args, ctx) => call('get_config', {}, ctx),
    }),
    defineTool({
      name: 'lua_set_config',
      title: 'Change configuration',
      description:
        'Sets configuration inputs by their PoB variable names (null clears one), recalculates, and reports what changed. Unknown names or wrong types change nothing.',
      input: z.object({
        input: z
          .record(z.string().min(1), z.union([z.boolean(), z.number(), z.string(), z.null()]))
          .refine((r) => Object.keys(r).length > 0, { message: 'name at least one option' })
          .describe('option name → value, e.g. {"enemyIsBoss": "Pinnacle", "useFrenzyCharges": true}; null clears'),
        fields,
      }),
      annotations: edits,
      handler: ({ input, fields: f }, ctx) => {
        const set = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null));
        const clear = Object.entries(input)
          .filter(([, v]) => v === null)
          .map(([k]) => k);
        return call('set_config', { input: set, clear, ...(f ? { fields: f } : {}) }, ctx);
      },
    }),
    defineTool({
      name: 'lua_verify_build',
      title: 'Check PoB parity',
      description:
        "Loads a build, recomputes it, and puts each <PlayerStat> value saved in it beside PoB's recomputed value with the relative difference: tells whether the PoB that saved the build and this one agree. Replaces the loaded build.",
      input: z.object({
        build: z.string().min(1).describe('build XML, a share code, or the path of a file holding either'),
        tolerance: z.number().min(0).max(1).default(1e-6).describe('largest relative difference counted as equal'),
      }),
      annotations: edits,
      handler: async ({ build, tolerance }, ctx) => {
        const report = await verifyBuild(getBridge(), build, tolerance, ctx.signal, ctx.progress, ctx.files);
        return structured({ ...report }, renderVerify(report));
      },
    }),
  ];
  for (const tool of tools) (tool as ToolDef).timeoutMs = timeoutMs;
  return tools as ToolDef<PobConfig, any>[];
}
