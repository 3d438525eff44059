// `mcphost doctor` for pob: luajit and lua-zlib present, the PoB path valid and its version, or
// the PoB GUI reachable in TCP mode; each problem comes with its fix.
import { execa } from 'execa';
import type { HealthReport } from '../../src/backend/index.js';
import type { PobBridge } from './bridge.js';
import { linkOf, type PobConfig } from './config.js';
import { checkPobPath, INSTALL_HINT } from './pob-files.js';

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

export async function pobHealth(config: PobConfig, bridge: PobBridge | undefined): Promise<HealthReport> {
  const enabled = config.lua.enabled;
  const off = 'Lua tools off (set plugins.pob.lua.enabled: true or POB_LUA_ENABLED=1 to list them)';
  const link = linkOf(config);
  if (link.kind === 'tcp') {
    if (!enabled) return { ok: true, message: `XML tools ready; ${off}`, detail: { lua: false, tcp: `${link.host}:${link.port}` } };
    try {
      const status = await bridge!.start();
      return { ok: true, message: `XML tools ready; PoB GUI answers at ${link.host}:${link.port}`, detail: { lua: true, ...status } };
    } catch (error) {
      return { ok: false, message: (error as Error).message, detail: { lua: true, tcp: `${link.host}:${link.port}` } };
    }
  }
  const [lj, pob] = await Promise.all([luajitVersion(config.cmd), Promise.resolve(checkPobPath(config.pobPath))]);
  const zlib = lj.version ? await hasZlib(config.cmd) : false;
  const problems: string[] = [];
  if (lj.problem) problems.push(lj.problem);
  else if (!zlib) problems.push('lua-zlib is missing for LuaJIT: install it with `apt-get install lua-zlib`');
  if (!pob.ok) problems.push(pob.problem!);
  const running = bridge?.status();
  const detail = {
    lua: enabled,
    luajit: lj.version ?? null,
    luaZlib: zlib,
    pobPath: config.pobPath ?? null,
    pobPathOk: pob.ok,
    missing: pob.missing,
    pobVersion: pob.version ?? null,
    running: running?.running ?? false,
    ...(running?.pid ? { pid: running.pid } : {}),
  };
  const found = `${lj.version ?? 'no luajit'}, lua-zlib ${zlib ? 'ok' : 'missing'}, ${pob.ok ? `PoB ${pob.version ?? '(version unknown)'} at ${config.pobPath}` : 'no PoB'}`;
  if (!enabled) return { ok: true, message: `XML tools ready; ${off}. Found: ${found}`, detail };
  if (problems.length) return { ok: false, message: `XML tools ready; Lua tools cannot start: ${problems.join('; ')}`, detail };
  return { ok: true, message: `XML and Lua tools ready: ${found}${running?.running ? ` (running, pid ${running.pid})` : ''}`, detail };
}
