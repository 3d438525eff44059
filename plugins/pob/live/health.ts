// `mcphost doctor` (and /health) for pob: luajit and lua-zlib present, which Lua server runs PoB
// and its folder valid, or the PoB GUI reachable in TCP mode; each problem comes with its fix.
// A report is kept a few seconds: checking runs luajit twice, and /health may be polled often.
import { execa } from 'execa';
import { approvalProblem, type HealthReport, type WithheldSetting } from '../../../src/backend/index.js';
import type { PobPool } from './pool.js';
import { defaultWorkers, linkOf, SPAWN_SETTINGS, type PobConfig } from '../config.js';
import { checkForkPath, checkPobPath, INSTALL_HINT } from './pob-files.js';
import { chooseServer, describeServer } from './server-choice.js';

const HEALTH_CACHE_MS = 5_000;

async function luajitVersion(cmd: string): Promise<{ version?: string; problem?: string }> {
  const run = await execa(cmd, ['-v'], { reject: false, timeout: 3_000, stdin: 'ignore' });
  if (run.failed && run.exitCode === undefined)
    return { problem: `\`${cmd}\` cannot be run (${run.code ?? run.shortMessage}): ${INSTALL_HINT}, or set plugins.pob.cmd (POB_CMD)` };
  const text = `${run.stdout}${run.stderr}`.trim().split('\n')[0] ?? '';
  return { version: text.replace(/\s+--.*$/, '') || `${cmd} (version unknown)` };
}

async function hasZlib(cmd: string): Promise<boolean> {
  const run = await execa(cmd, ['-e', 'require("zlib")'], { reject: false, timeout: 3_000, stdin: 'ignore' });
  return run.exitCode === 0;
}

async function tcpHealth(config: PobConfig, pool: PobPool | undefined): Promise<HealthReport> {
  const link = linkOf(config) as { host: string; port: number };
  const endpoint = `${link.host}:${link.port}`;
  if (!config.lua.enabled) return { ok: true, message: `XML tools ready; ${OFF}`, detail: { lua: false, tcp: endpoint } };
  try {
    await pool!.run({ client: 'pob:health', tool: 'health', run: (w) => w.call('ping', {}, 'health') });
    const status = pool!.status();
    const speaks = status.server === 'pob-api' ? "the pob-api fork's TCP API" : "mcphost's protocol";
    return { ok: true, message: `XML tools ready; PoB GUI answers at ${endpoint} (${speaks})`, detail: { lua: true, ...status } };
  } catch (error) {
    return { ok: false, message: (error as Error).message, detail: { lua: true, tcp: endpoint } };
  }
}

const OFF = 'Lua tools off (set plugins.pob.lua.enabled: true or POB_LUA_ENABLED=1 to list them)';

export async function pobHealth(
  config: PobConfig,
  pool: PobPool | undefined,
  withheld: readonly WithheldSetting[] = [],
): Promise<HealthReport> {
  if (linkOf(config).kind === 'tcp') return tcpHealth(config, pool);
  const enabled = config.lua.enabled;
  // What the file names waits for approval: checking luajit and the folder would check other ones.
  const why = approvalProblem({ withheld }, SPAWN_SETTINGS);
  if (why) {
    const detail = { lua: enabled, notApproved: withheld.map((w) => w.path) };
    return enabled
      ? { ok: false, message: `XML tools ready; Lua tools cannot start: ${why}`, detail }
      : { ok: true, message: `XML tools ready; ${OFF}; ${why}`, detail };
  }
  const choice = pool?.choice ?? chooseServer(config);
  const pob = choice.kind === 'mcphost' ? checkPobPath(choice.pobPath) : checkForkPath(choice.src);
  const lj = await luajitVersion(config.cmd);
  const zlib = lj.version ? await hasZlib(config.cmd) : false;
  const problems: string[] = [];
  if (lj.problem) problems.push(lj.problem);
  // The fork's own API does not use lua-zlib (its Inflate tries zlib1 through the FFI).
  else if (!zlib && choice.kind === 'mcphost') problems.push('lua-zlib is missing for LuaJIT: install it with `apt-get install lua-zlib`');
  if (!pob.ok) problems.push(pob.problem!);
  const running = pool?.status();
  const server = describeServer(choice, config.cmd);
  const detail = {
    lua: enabled,
    server: choice.kind,
    serverReason: choice.why,
    luajit: lj.version ?? null,
    luaZlib: zlib,
    pobPath: choice.kind === 'mcphost' ? (choice.pobPath ?? null) : null,
    ...(choice.kind === 'pob-api' ? { forkPath: choice.src, args: choice.args } : {}),
    pobPathOk: pob.ok,
    missing: pob.missing,
    pobVersion: pob.version ?? null,
    running: running?.running ?? false,
    ...(running?.pid ? { pid: running.pid } : {}),
    workers: pool?.size ?? config.lua.workers ?? defaultWorkers(config),
  };
  const found = `${lj.version ?? 'no luajit'}, lua-zlib ${zlib ? 'ok' : 'missing'}, ${pob.ok ? `PoB ${pob.version ?? '(version unknown)'} at ${pob.path}` : 'no PoB'}`;
  if (!enabled) return { ok: true, message: `XML tools ready; ${OFF}. Found: ${found}`, detail };
  if (problems.length) return { ok: false, message: `XML tools ready; Lua tools cannot start: ${problems.join('; ')}`, detail };
  return {
    ok: true,
    message: `XML and Lua tools ready: ${found}; server: ${server}${running?.running ? ` (running, pid ${running.pid})` : ''}`,
    detail,
  };
}

/** Keeps one report for `ttlMs`; callers arriving while a check runs share it. */
export function cachedHealth(
  check: () => Promise<HealthReport>,
  ttlMs = HEALTH_CACHE_MS,
  now = () => Date.now(),
): () => Promise<HealthReport> {
  let last: { at: number; report: Promise<HealthReport> } | undefined;
  return () => {
    if (last && now() - last.at < ttlMs) return last.report;
    const report = check();
    last = { at: now(), report };
    report.catch(() => (last = undefined));
    return report;
  };
}
