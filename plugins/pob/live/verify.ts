// lua_verify_build: load a build into PoB, recompute, and put each saved <PlayerStat> beside the
// recomputed value, to tell whether the user's PoB version and ours agree.
import { ToolError } from '../../../src/backend/index.js';
import { readBuildText } from '../build/build-input.js';
import { loadBuild, resolveBuild, type LuaContext } from './lua-calls.js';
import { analyzeBuildXml } from '../build/parse-job.js';
import type { PobPool } from './pool.js';
import { formatNumber } from '../build/render.js';

interface VerifyRow {
  stat: string;
  saved: number;
  computed?: number;
  relativeDifference?: number;
  ok: boolean;
}

export interface VerifyReport {
  pobVersion?: string;
  tolerance: number;
  total: number;
  matching: number;
  differing: number;
  missing: number;
  agrees: boolean;
  rows: VerifyRow[];
}

function relativeDifference(a: number, b: number): number {
  if (a === b) return 0;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
}

/** The build's XML: an argument (XML, share code or file), or a stored build named by build_id. */
async function buildXml(pool: PobPool, ctx: LuaContext, given: { build?: string; build_id?: string }): Promise<string> {
  if (given.build !== undefined) return (await readBuildText(given.build, 'build', ctx.files)).xml;
  resolveBuild(pool, ctx, given.build_id, 'pob_lua_verify_build');
  const stored = await pool.store.get(given.build_id!);
  if (stored === undefined)
    throw new ToolError(`build_id ${given.build_id} is not in the build store: load the build with pob_lua_load_build first`, {
      code: 'UNKNOWN_BUILD',
    });
  return stored;
}

/** Loads the build (it becomes the client's) and compares, in one call on one worker. */
export async function verifyBuild(
  pool: PobPool,
  ctx: LuaContext,
  given: { build?: string; build_id?: string },
  tolerance: number,
): Promise<{ report: VerifyReport; buildId?: string }> {
  const xml = await buildXml(pool, ctx, given);
  const analysis = await analyzeBuildXml(xml, 'build', ctx.signal);
  const saved: Record<string, number> = { ...analysis.stats };
  for (const [name, value] of Object.entries(analysis.minionStats)) saved[`Minion.${name}`] = value;
  const names = Object.keys(saved);
  if (names.length === 0) {
    throw new ToolError('build: it has no saved <PlayerStat> values to compare with (PoB writes them when it saves a build)', {
      code: 'NO_SAVED_STATS',
    });
  }
  const tool = 'pob_lua_verify_build';
  const { value, buildId } = await loadBuild(pool, ctx, tool, { xml, name: 'verify' }, async (w) => ({
    stats: (await w.call<{ stats: Record<string, unknown> }>('get_stats', { fields: names }, tool)).stats,
    version: await w.call<{ pob?: { version?: string } }>('version', {}, tool).catch(() => undefined),
  }));
  const { stats, version } = value;
  const rows: VerifyRow[] = names.map((stat) => {
    const value = stats[stat];
    if (typeof value !== 'number') return { stat, saved: saved[stat], ok: false };
    const diff = relativeDifference(saved[stat], value);
    return { stat, saved: saved[stat], computed: value, relativeDifference: diff, ok: diff <= tolerance };
  });
  const missing = rows.filter((r) => r.computed === undefined).length;
  const matching = rows.filter((r) => r.ok).length;
  const report: VerifyReport = {
    pobVersion: version?.pob?.version,
    tolerance,
    total: rows.length,
    matching,
    differing: rows.length - matching - missing,
    missing,
    agrees: matching === rows.length,
    rows,
  };
  return { report, buildId };
}

export function renderVerify(report: VerifyReport): string {
  const head = `${report.matching}/${report.total} saved stats match PoB ${report.pobVersion ?? '?'} within ${report.tolerance > 0 && report.tolerance < 1e-3 ? report.tolerance.toExponential() : report.tolerance} (relative)`;
  const bad = report.rows.filter((r) => !r.ok);
  if (bad.length === 0) return `${head}: this PoB computes what the build's PoB saved.`;
  const lines = bad.map((r) =>
    r.computed === undefined
      ? `  ${r.stat}: saved ${formatNumber(r.saved)}, not computed`
      : `  ${r.stat}: saved ${formatNumber(r.saved)}, computed ${formatNumber(r.computed)} (${((r.relativeDifference ?? 0) * 100).toPrecision(3)}% apart)`,
  );
  return [`${head}; ${report.differing} differ, ${report.missing} not computed:`, ...lines].join('\n');
}
