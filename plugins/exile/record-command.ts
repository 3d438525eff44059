// `mcphost exile:snapshot`: records the live HUD into a snapshot file. The host makes its CLI from
// `recordInput` (flags --out, --roots, --max-calls, …; defaults and help as written here).
import * as z from 'zod';
import { defineCommand, structured, ToolError, type CallContext, type CommandDef, type ToolResult } from '../../src/backend/index.js';
import { createRemoteProvider } from './remote.js';
import { DEFAULT_MAX_CALLS, DEFAULT_MAX_OBJECTS, DEFAULT_MAX_SECONDS } from './snapshot/record/budget.js';

const recordInput = z.object({
  out: z.string().min(1).optional().describe('snapshot file to write (absolute, or relative to the working directory)'),
  check: z
    .string()
    .min(1)
    .optional()
    .describe(
      'patch-day check: evaluate the paths this snapshot holds against the live HUD and report those that no longer resolve or changed type (nothing is written)',
    ),
  checkPaths: z.number().int().min(1).max(100_000).default(2_000).describe('--check: paths checked at most'),
  roots: z.array(z.string().min(1)).optional().describe('roots to record, comma-separated or repeated (default: all but Files and Memory)'),
  depth: z.number().int().min(1).max(32).default(8).describe('object levels recorded below each root'),
  items: z.number().int().min(1).max(10_000).default(10_000).describe('items recorded per collection'),
  types: z
    .array(z.string().min(1))
    .optional()
    .describe('globs of extra types whose metadata to record, comma-separated or repeated ("*" for all)'),
  url: z.string().min(1).optional().describe("the HUD's MCP endpoint (default: plugins.exile.url, else http://127.0.0.1:5099/mcp)"),
  maxCalls: z.number().int().min(1).max(10_000_000).default(DEFAULT_MAX_CALLS).describe('explore calls at most; the rest is cut'),
  maxObjects: z.number().int().min(1).max(50_000_000).default(DEFAULT_MAX_OBJECTS).describe('objects recorded at most'),
  maxSeconds: z.number().min(1).max(86_400).default(DEFAULT_MAX_SECONDS).describe('seconds at most'),
});

interface RecordSummary {
  out: string;
  url: string;
  roots: string[];
  types: number;
  bytes: number;
  calls: number;
  objects: number;
  seconds: number;
  /** Absent when the recording finished within its budget. */
  cut?: { reason: string; objects: number; paths: string[] };
}

export function recordCommand(): CommandDef<{ url: string }, typeof recordInput> {
  return defineCommand<{ url: string }, typeof recordInput>({
    summary:
      'Record the live ExileApi HUD into a snapshot file the exile tools can serve offline. Walks the HUD breadth-first through ' +
      'its explore tool and writes the object graph and the type metadata as one JSON document (docs/exile-snapshot.md); a ' +
      'budget on calls, objects and seconds always ends the recording, and what it cut is written in the header (source.cut). ' +
      'Serve it with plugins.exile.snapshot in .mcprc, or `mcphost call exile <tool> --snapshot FILE`. ' +
      'Exit codes: 0 written, 1 usage, 3 invalid config, 4 HUD unreachable, 5 the HUD returned an error.',
    input: recordInput,
    async run(args, ctx): Promise<ToolResult> {
      const url = args.url ?? ctx.config.url;
      if (args.check !== undefined) return runCheck(await ctx.files.resolve(args.check, { field: 'check' }), url, args.checkPaths, ctx);
      if (args.out === undefined)
        throw new ToolError(
          'Expected --out FILE (where to write the snapshot), or --check FILE (a snapshot to check against the live HUD)',
          {
            code: 'INVALID_ARGUMENT',
          },
        );
      const out = await ctx.files.resolve(args.out, { field: 'out' });
      const remote = createRemoteProvider({ url, logger: ctx.logger });
      const { recordSnapshot, saveSnapshot } = await import('./snapshot/index.js');
      try {
        const doc = await recordSnapshot(remote, {
          roots: splitLists(args.roots),
          depth: args.depth,
          items: args.items,
          types: splitLists(args.types),
          maxCalls: args.maxCalls,
          maxObjects: args.maxObjects,
          maxSeconds: args.maxSeconds,
          signal: ctx.signal,
          logger: ctx.logger,
          source: { url },
          progress: ctx.progress,
        });
        const bytes = await saveSnapshot(out, doc);
        const used = doc.source?.used as { calls: number; objects: number; seconds: number };
        const cut = doc.source?.cut as RecordSummary['cut'];
        const summary: RecordSummary = {
          out,
          url,
          roots: Object.keys(doc.roots),
          types: Object.keys(doc.types).length,
          bytes,
          ...used,
          ...(cut ? { cut } : {}),
        };
        if (cut)
          ctx.logger.warn(
            `the ${cut.reason.replace('max', '--max-').toLowerCase()} budget cut ${cut.objects} objects (recorded as stubs), ` +
              `e.g. ${cut.paths.slice(0, 3).join(', ')}: raise it to record them`,
          );
        return structured(
          { ...summary },
          `wrote ${out} (${bytes} bytes): roots ${summary.roots.join(', ')}; ${summary.types} types; ` +
            `${used.calls} calls, ${used.objects} objects in ${used.seconds} s`,
        );
      } finally {
        await remote.close();
      }
    },
  });
}

/** `--check last.json`: the paths the snapshot holds, asked of the live HUD (snapshot/check.ts). */
async function runCheck(file: string, url: string, maxPaths: number, ctx: CallContext<{ url: string }>): Promise<ToolResult> {
  const remote = createRemoteProvider({ url, logger: ctx.logger });
  const { checkSnapshot } = await import('./snapshot/check.js');
  try {
    const report = await checkSnapshot(file, remote, { maxPaths, maxDepth: 6, signal: ctx.signal });
    const lines = [
      `checked ${report.checked} paths of ${file} against ${url}${report.truncated ? ' (more are held: raise --check-paths)' : ''}: ` +
        `${report.missing.length} no longer resolve, ${report.changed.length} changed type`,
      ...report.missing.slice(0, 50).map((m) => `  gone     ${m.path}: ${m.error}`),
      ...report.changed.slice(0, 50).map((c) => `  changed  ${c.path}: was ${c.was}, now ${c.now}`),
    ];
    return structured({ ...report, ok: report.missing.length === 0 && report.changed.length === 0 }, lines.join('\n'));
  } finally {
    await remote.close();
  }
}

/** `--roots Player,Entities` as well as `--roots Player --roots Entities`. */
function splitLists(values: string[] | undefined): string[] | undefined {
  const out = values
    ?.flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  return out && out.length > 0 ? out : undefined;
}
