// Which Lua server runs PoB when the plugin spawns one: mcphost's own (server.lua over an
// unmodified PoB checkout) or the pob-api fork's own stdio API (`luajit HeadlessWrapper.lua` with
// POB_API_STDIO=1), as the seed's settings (POB_FORK_PATH, POB_ARGS) ask.
import os from 'node:os';
import path from 'node:path';
import type { PobConfig } from '../config.js';
import { holdsForkApi } from './pob-files.js';

export type ServerChoice =
  { kind: 'mcphost'; pobPath?: string; why: string } | { kind: 'pob-api'; src: string; args: string[]; why: string };

/** The seed's default place for the fork's src folder. */
function defaultForkSrc(home = os.homedir()): string {
  return path.join(home, 'Projects', 'pob-api-fork', 'src');
}

function splitArgs(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

export function chooseServer(config: PobConfig, home?: string): ServerChoice {
  const src = config.forkPath ?? (config.pobPath ? path.join(config.pobPath, 'src') : defaultForkSrc(home));
  const fork = (why: string): ServerChoice => ({ kind: 'pob-api', src, args: splitArgs(config.args ?? 'HeadlessWrapper.lua'), why });
  const own = (why: string): ServerChoice => ({
    kind: 'mcphost',
    pobPath: config.pobPath ?? (config.forkPath ? path.dirname(config.forkPath) : undefined),
    why,
  });
  if (config.server === 'mcphost') return own('server: mcphost is set');
  if (config.server === 'pob-api') return fork('server: pob-api is set');
  if (config.args) return fork('POB_ARGS (plugins.pob.args) is set');
  if (config.forkPath) return fork('POB_FORK_PATH (plugins.pob.forkPath) is set');
  if (holdsForkApi(src)) return fork(`${src} holds the pob-api fork's API (API/Handlers.lua)`);
  return own(config.pobPath ? 'an unmodified PoB checkout' : 'no PoB configured');
}

/** One line for doctor and lua_start: which server, and why. */
export function describeServer(choice: ServerChoice, cmd: string): string {
  return choice.kind === 'mcphost'
    ? `mcphost's Lua server (plugins/pob/live/lua/server.lua) over ${choice.pobPath ?? '(no pobPath)'} (${choice.why})`
    : `the pob-api fork's own stdio API (${[cmd, ...choice.args].join(' ')} with POB_API_STDIO=1 in ${choice.src}) (${choice.why})`;
}
