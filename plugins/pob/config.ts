// The pob section of .mcprc: defaults in one place, environment variables beside the keys.
import * as z from 'zod';
import { configPath } from '../../src/backend/index.js';

export const configSchema = z.object({
  pobPath: configPath()
    .optional()
    .describe('Path of Building Community checkout or install: the folder holding src/HeadlessWrapper.lua and runtime/lua/ (env POB_PATH)'),
  forkPath: configPath()
    .optional()
    .describe(
      "the pob-api fork's src folder (holds HeadlessWrapper.lua and API/Handlers.lua): its own stdio API is run (env POB_FORK_PATH; default ~/Projects/pob-api-fork/src when pobPath is unset)",
    ),
  server: z
    .enum(['auto', 'mcphost', 'pob-api'])
    .default('auto')
    .describe(
      "which Lua server runs PoB: mcphost's own, the pob-api fork's own stdio API, or auto (the fork's when POB_ARGS is set or the folder holds the fork's API; mcphost's on an unmodified PoB) (env POB_SERVER)",
    ),
  cmd: z.string().min(1).default('luajit').describe('LuaJIT command that runs PoB (env POB_CMD)'),
  args: z
    .string()
    .min(1)
    .optional()
    .describe(
      "arguments of the fork's API command, split on spaces; setting it runs the fork's stdio API (env POB_ARGS; default HeadlessWrapper.lua)",
    ),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .default(10_000)
    .describe('per-request timeout of the Lua process; on timeout it is killed and starts afresh on the next call (env POB_TIMEOUT_MS)'),
  startTimeoutMs: z.number().int().positive().default(30_000).describe('how long PoB may take to start (env POB_START_TIMEOUT_MS)'),
  restartAfterLoads: z
    .number()
    .int()
    .min(0)
    .default(50)
    .describe(
      'restart the Lua process after this many build loads, carrying the current build over; 0 = never (env POB_RESTART_AFTER_LOADS)',
    ),
  maxRssMb: z
    .number()
    .int()
    .min(0)
    .default(1024)
    .describe(
      'restart the Lua process when its resident memory exceeds this many MiB, carrying the current build over; 0 = no limit (env POB_MAX_RSS_MB)',
    ),
  tcp: z
    .object({
      host: z
        .string()
        .min(1)
        .default('127.0.0.1')
        .describe("host of a PoB GUI serving the pob-api fork's TCP API (or mcphost's protocol) (env POB_API_TCP)"),
      port: z.number().int().min(1).max(65535).default(31337).describe('its port (env POB_API_TCP_PORT)'),
    })
    .optional()
    .describe("talk to a PoB GUI running the pob-api fork's TCP API instead of spawning luajit"),
  lua: z
    .object({ enabled: z.boolean().default(false).describe('list the pob_lua_* tools (env POB_LUA_ENABLED)') })
    .prefault({})
    .describe('live calculations through PoB itself'),
});

export type PobConfig = z.output<typeof configSchema>;

export const configEnv: Record<string, string> = {
  pobPath: 'POB_PATH',
  forkPath: 'POB_FORK_PATH',
  server: 'POB_SERVER',
  cmd: 'POB_CMD',
  args: 'POB_ARGS',
  timeoutMs: 'POB_TIMEOUT_MS',
  startTimeoutMs: 'POB_START_TIMEOUT_MS',
  restartAfterLoads: 'POB_RESTART_AFTER_LOADS',
  maxRssMb: 'POB_MAX_RSS_MB',
  'tcp.host': 'POB_API_TCP',
  'tcp.port': 'POB_API_TCP_PORT',
  'lua.enabled': 'POB_LUA_ENABLED',
};

/** Where the bridge talks: a spawned luajit, or a PoB GUI over TCP. */
export type Link = { kind: 'spawn' } | { kind: 'tcp'; host: string; port: number };

const on = new Set(['1', 'true', 'yes', 'on']);
const off = new Set(['0', 'false', 'no', 'off']);

/** `POB_API_TCP=1` means the default host; `POB_API_TCP=0` turns TCP off. */
export function linkOf(config: PobConfig): Link {
  if (!config.tcp) return { kind: 'spawn' };
  const host = config.tcp.host.trim().toLowerCase();
  if (off.has(host)) return { kind: 'spawn' };
  return { kind: 'tcp', host: on.has(host) ? '127.0.0.1' : config.tcp.host.trim(), port: config.tcp.port };
}
