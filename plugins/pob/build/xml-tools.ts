// The tools that need no luajit: decode, encode, analyze, compare.
import * as z from 'zod';
import { defineTool, structured, ToolError } from '../../../src/backend/index.js';
import { readBuildText } from './build-input.js';
import { compareBuilds } from './compare.js';
import { analyzeBuildXml, checkBuildXml } from './parse-job.js';
import { renderAnalysis, renderComparison } from './render.js';
import { encodeShareCode } from './share-code.js';
import { BUILD_VIEW, COMPARE_VIEW, viewMeta } from './views.js';

const buildArg = (what: string) =>
  z
    .string()
    .min(1)
    .describe(`${what}: build XML, a share code (URL-safe base64 of zlib-deflated XML), or the path of a file holding either`);

const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

export const xmlTools = [
  defineTool({
    name: 'decode',
    title: 'Decode a PoB share code',
    description: 'Turns a Path of Building share code (the import code of pastebin or pobb.in, or a file holding one) into the build XML.',
    input: z.object({
      code: z.string().min(1).describe('share code (URL-safe base64 of zlib-deflated build XML), or the path of a file holding one'),
    }),
    annotations: readOnly,
    handler: async ({ code }, ctx) => {
      const build = await readBuildText(code, 'code', ctx.files);
      await checkBuildXml(build.xml, 'code', ctx.signal);
      return build.xml;
    },
  }),
  defineTool({
    name: 'encode',
    title: 'Encode build XML as a PoB share code',
    description: 'Turns Path of Building build XML (or a file holding it) into a share code PoB can import.',
    input: z.object({
      xml: z
        .string()
        .min(1)
        .describe('build XML (a <PathOfBuilding> or, for Path of Exile 2, <PathOfBuilding2> document), or the path of a file holding it'),
    }),
    annotations: readOnly,
    handler: async ({ xml }, ctx) => {
      const text = await readBuildText(xml, 'xml', ctx.files);
      if (text.source === 'code')
        throw new ToolError('xml: this is already a share code; pass build XML (or decode it first with pob_decode)', { code: 'BAD_XML' });
      await checkBuildXml(text.xml, 'xml', ctx.signal);
      return encodeShareCode(text.xml);
    },
  }),
  defineTool({
    name: 'analyze_build',
    title: 'Analyze a PoB build',
    description:
      'Reads a Path of Building build without running PoB: class, ascendancy, level, bandit/pantheon, main skill, every socket group with its gems, equipped items with their mods, the passive tree (version, class, nodes, masteries, jewels), config inputs, and the <PlayerStat> values PoB saved in the XML.',
    input: z.object({ build: buildArg('the build') }),
    _meta: viewMeta(BUILD_VIEW),
    annotations: readOnly,
    handler: async ({ build }, ctx) => {
      const text = await readBuildText(build, 'build', ctx.files);
      const analysis = await analyzeBuildXml(text.xml, 'build', ctx.signal);
      return structured({ source: text.source, ...(text.file ? { file: text.file } : {}), ...analysis }, renderAnalysis(analysis));
    },
  }),
  defineTool({
    name: 'compare_builds',
    title: 'Compare two PoB builds',
    description:
      'Differences between two builds as saved: stat deltas (<PlayerStat>), tree nodes added/removed, gems and items changed, config changes.',
    input: z.object({ a: buildArg('the first build'), b: buildArg('the second build') }),
    _meta: viewMeta(COMPARE_VIEW),
    annotations: readOnly,
    handler: async ({ a, b }, ctx) => {
      const [ta, tb] = await Promise.all([readBuildText(a, 'a', ctx.files), readBuildText(b, 'b', ctx.files)]);
      const [aa, ab] = await Promise.all([analyzeBuildXml(ta.xml, 'a', ctx.signal), analyzeBuildXml(tb.xml, 'b', ctx.signal)]);
      const comparison = compareBuilds(aa, ab);
      return structured({ ...comparison }, renderComparison(comparison));
    },
  }),
];
