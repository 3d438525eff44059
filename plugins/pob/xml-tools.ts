// The tools that need no luajit: decode, encode, analyze, compare.
import * as z from 'zod';
import { defineTool, structured, ToolError } from '../../src/backend/index.js';
import { analyzeBuild } from './analyze.js';
import { readBuild, readBuildText } from './build-input.js';
import { compareBuilds } from './compare.js';
import { renderAnalysis, renderComparison } from './render.js';
import { encodeShareCode } from './share-code.js';
import { parseBuildXml } from './xml.js';

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
    description: 'Turns a Path of Building share code (or a file holding one) into the build XML.',
    input: z.object({
      code: z.string().min(1).describe('share code (URL-safe base64 of zlib-deflated build XML), or the path of a file holding one'),
    }),
    annotations: readOnly,
    handler: ({ code }) => {
      const build = readBuild(code, 'code');
      return build.xml;
    },
  }),
  defineTool({
    name: 'encode',
    title: 'Encode build XML as a PoB share code',
    description: 'Turns Path of Building build XML (or a file holding it) into a share code PoB can import.',
    input: z.object({ xml: z.string().min(1).describe('build XML (<PathOfBuilding> document), or the path of a file holding it') }),
    annotations: readOnly,
    handler: ({ xml }) => {
      const text = readBuildText(xml, 'xml');
      if (text.source === 'code')
        throw new ToolError('xml: this is already a share code; pass build XML (or decode it first with pob_decode)', { code: 'BAD_XML' });
      parseBuildXml(text.xml, 'xml');
      return encodeShareCode(text.xml);
    },
  }),
  defineTool({
    name: 'analyze_build',
    title: 'Analyze a PoB build',
    description:
      'Reads a Path of Building build without running PoB: class, ascendancy, level, bandit/pantheon, main skill, every socket group with its gems, equipped items with their mods, the passive tree (version, class, nodes, masteries, jewels), config inputs, and the <PlayerStat> values PoB saved in the XML.',
    input: z.object({ build: buildArg('the build') }),
    annotations: readOnly,
    handler: ({ build }) => {
      const parsed = readBuild(build, 'build');
      const analysis = analyzeBuild(parsed.root);
      return structured({ source: parsed.source, ...(parsed.file ? { file: parsed.file } : {}), ...analysis }, renderAnalysis(analysis));
    },
  }),
  defineTool({
    name: 'compare_builds',
    title: 'Compare two PoB builds',
    description:
      'Differences between two builds as saved: stat deltas (<PlayerStat>), tree nodes added/removed, gems and items changed, config changes.',
    input: z.object({ a: buildArg('the first build'), b: buildArg('the second build') }),
    annotations: readOnly,
    handler: ({ a, b }) => {
      const comparison = compareBuilds(analyzeBuild(readBuild(a, 'a').root), analyzeBuild(readBuild(b, 'b').root));
      return structured({ ...comparison }, renderComparison(comparison));
    },
  }),
];
