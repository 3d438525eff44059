// How a worker reaches PoB: a spawned luajit (mcphost's server over an unmodified PoB, or the
// pob-api fork's own stdio API), or a connection to a PoB GUI serving the fork's TCP API.
import type { Logger, WithheldSetting } from '../../../src/backend/index.js';
import { requireApproved, UnavailableError } from '../../../src/backend/index.js';
import { JsonLinesProcess, JsonLinesTcpClient } from '../../../src/kit/json-lines/index.js';
import { linkOf, SPAWN_SETTINGS, type PobConfig } from '../config.js';
import { checkForkPath, checkPobPath, forkSpawnEnvironment, spawnEnvironment } from './pob-files.js';
import type { ServerChoice } from './server-choice.js';

/** The fork's greeting: `{ok:true, ready:true, version:{…}}` (TcpServer.lua, Server.lua). */
const isGreeting = (m: Record<string, unknown>) => typeof m.ready === 'boolean' && !('id' in m);

/** The worker's luajit (not started yet); throws what is missing from the configured PoB folder. */
export function processFor(
  config: PobConfig,
  choice: ServerChoice,
  logger: Logger,
  index: number,
  onStartOutput: (line: string) => void,
  withheld: readonly WithheldSetting[] = [],
): JsonLinesProcess {
  // Falling back to the defaults (luajit, the default fork folder) would run another PoB than the
  // one the file names: stop and say what to approve instead.
  requireApproved({ withheld }, SPAWN_SETTINGS, 'PoB cannot start');
  let spawn: { command: string; args: string[]; cwd: string; env: Record<string, string | undefined> };
  if (choice.kind === 'mcphost') {
    const check = checkPobPath(choice.pobPath);
    if (!check.ok)
      throw new UnavailableError(`PoB cannot start: ${check.problem}`, { data: { missing: check.missing, pobPath: check.path } });
    const { cwd, env, script } = spawnEnvironment(check.path!);
    spawn = { command: config.cmd, args: [script], cwd, env };
  } else {
    const check = checkForkPath(choice.src);
    if (!check.ok)
      throw new UnavailableError(`PoB cannot start: ${check.problem}`, { data: { missing: check.missing, forkPath: check.path } });
    spawn = { command: config.cmd, args: choice.args, ...forkSpawnEnvironment(choice.src) };
  }
  const fork = choice.kind === 'pob-api';
  return new JsonLinesProcess({
    ...spawn,
    name: `${fork ? 'PoB (pob-api fork)' : 'PoB (luajit)'} worker ${index + 1}`,
    startTimeoutMs: config.startTimeoutMs,
    requestTimeoutMs: config.timeoutMs,
    logger,
    // The fork logs on stdout and echoes no ids; its banner is `{ok, ready, version}`.
    fifo: fork,
    stdoutNoise: fork,
    onStartOutput,
  });
}

/** The connection to a PoB GUI at plugins.pob.tcp. */
export function tcpClientFor(config: PobConfig, logger: Logger): JsonLinesTcpClient {
  const link = linkOf(config) as { host: string; port: number };
  return new JsonLinesTcpClient({
    host: link.host,
    port: link.port,
    connectTimeoutMs: 3_000,
    requestTimeoutMs: config.timeoutMs,
    fifo: true,
    isBanner: isGreeting,
    onStray: (line, reason) => logger.debug(`PoB at ${link.host}:${link.port}: stray line (${reason}): ${line.slice(0, 200)}`),
  });
}
