// What the bridge says when PoB cannot start, stops answering, exits, or is not reachable: each
// message names the tool and what to do.
import { ToolError, UnavailableError } from '../../../src/backend/index.js';
import { ConnectError, PeerError, ProcessError } from '../../../src/kit/json-lines/index.js';
import type { PobConfig } from '../config.js';
import { INSTALL_HINT } from './pob-files.js';
import type { ServerChoice } from './server-choice.js';

/** A request that failed in a spawned worker. `retry` says what the next attempt gets, after a timeout. */
export function processFailure(error: ProcessError, tool: string, config: PobConfig, choice: ServerChoice, retry?: string): Error {
  if (error.code === 'SPAWN' || error.code === 'NOT_READY' || error.code === 'START_TIMEOUT') return startFailure(error, config, choice);
  const data = { exitCode: error.exitCode, signal: error.signal, stderr: error.stderr };
  if (error.code === 'TIMEOUT') {
    const within = /within (\d+) ms/.exec(error.message)?.[1];
    return new ToolError(
      `PoB gave no answer to ${tool} within ${within ?? config.timeoutMs} ms; that worker was stopped and starts afresh on the next call${retry ? `, and ${retry}` : ''}`,
      { code: 'LUA_TIMEOUT', data },
    );
  }
  if (error.code === 'EXITED') {
    const tail = error.stderr.length ? `; last stderr lines:\n${error.stderr.join('\n')}` : '';
    const how = error.signal ? `signal ${error.signal}` : `code ${error.exitCode}`;
    return new ToolError(`PoB exited with ${how} during ${tool}; it starts afresh on the next call${tail}`, { code: 'LUA_EXITED', data });
  }
  if (error.code === 'CLOSED') return new UnavailableError('the PoB workers are shut down');
  return error;
}

export function startFailure(error: unknown, config: PobConfig, choice: ServerChoice, retry?: string): Error {
  if (!(error instanceof ProcessError)) return error as Error;
  const { cmd } = config;
  const where = choice.kind === 'mcphost' ? choice.pobPath : choice.src;
  const what =
    choice.kind === 'mcphost'
      ? 'an intact Path of Building Community checkout'
      : "the pob-api fork's src folder, intact (its API/Server.lua starts the API)";
  const tail = error.stderr.length ? `\nlast stderr lines:\n${error.stderr.join('\n')}` : '';
  const detail = error.detail as { error?: { code?: string; message?: string } | string } | undefined;
  const own = typeof detail?.error === 'object' ? detail.error : undefined;
  let message: string;
  if (error.code === 'SPAWN')
    message = `cannot run \`${cmd}\` (${String(error.detail ?? error.message)}): ${INSTALL_HINT}, or set plugins.pob.cmd (POB_CMD) to the luajit binary`;
  else if (error.code === 'START_TIMEOUT')
    message = `${error.message}; ${retry ?? 'raise plugins.pob.startTimeoutMs (POB_START_TIMEOUT_MS) if the machine is slow'}${tail}`;
  else if (own?.code === 'NO_ZLIB') message = own.message ?? INSTALL_HINT;
  else if (own?.code === 'POB_INIT') message = `${own.message}; check that ${where} is ${what}${tail}`;
  else message = `PoB did not start: ${error.message}; check that ${where} is ${what} and that ${INSTALL_HINT}`;
  return new UnavailableError(message, { cause: error, data: { code: error.code, exitCode: error.exitCode, stderr: error.stderr } });
}

export function tcpFailure(error: unknown, link: { host: string; port: number }, tool: string, timeoutMs: number): Error {
  const at = `${link.host}:${link.port}`;
  if (error instanceof ConnectError)
    return new UnavailableError(
      `cannot reach PoB at ${at} (${error.message}): start Path of Building with its API listening there (the pob-api fork: POB_API_TCP=1 when launching PoB), or remove plugins.pob.tcp (POB_API_TCP) to spawn luajit instead`,
      { cause: error },
    );
  if (error instanceof PeerError && error.code === 'TIMEOUT')
    return new ToolError(
      `PoB at ${at} gave no answer to ${tool} within ${timeoutMs} ms; the connection was closed and is reopened on the next call (is a dialog open in PoB?)`,
      { code: 'LUA_TIMEOUT' },
    );
  if (error instanceof PeerError && error.code === 'CLOSED')
    return new UnavailableError(`${error.message} during ${tool}: is PoB still running? The next call reconnects`, { cause: error });
  return error as Error;
}
