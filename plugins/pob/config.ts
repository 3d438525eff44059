// The pob section of .mcprc: defaults in one place, environment variables beside the keys.
import os from 'node:os';
import * as z from 'zod';
import { codePath, configPath, programPath, runs } from '../../src/backend/index.js';

export const configSchema = z.object({
  pobPath: codePath()
    .optional()
    .describe('Path of Building Community checkout or install: the folder holding src/HeadlessWrapper.lua and runtime/lua/ (env POB_PATH)'),
  forkPath: codePath()
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
  game: z
    .enum(['poe1', 'poe2'])
    .default('poe1')
    .describe(
      'which game the engine tools (pob_lua_*) are for: poe1 (Path of Building Community) or poe2 (PathOfBuilding-PoE2, not run by this mcphost: its engine tools say so; the XML tools read both) (env POB_GAME)',
    ),
  cmd: programPath().default('luajit').describe('LuaJIT command that runs PoB (env POB_CMD)'),
  args: runs(z.string().min(1))
    .optional()
    .describe(
      "arguments of the fork's API command, split on spaces; setting it runs the fork's stdio API (env POB_ARGS; default HeadlessWrapper.lua)",
    ),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .default(10_000)
    .describe(
      'per request to a PoB worker (loads have their own budget): past it the worker is killed, and the next request gets twice as long (env POB_TIMEOUT_MS)',
    ),
  startTimeoutMs: z
    .number()
    .int()
    .positive()
    .default(30_000)
    .describe('how long a PoB worker may take to start; past it, the next start gets twice as long (env POB_START_TIMEOUT_MS)'),
  loadTimeoutMs: z
    .number()
    .int()
    .positive()
    .default(120_000)
    .describe(
      'how long PoB may take to load a build (the first loads on a busy machine take 10-30 s); past it, the next load gets twice as long (env POB_LOAD_TIMEOUT_MS)',
    ),
  restartAfterLoads: z
    .number()
    .int()
    .min(0)
    .default(50)
    .describe(
      'restart a PoB worker after this many build loads (its build reloads from the store on the next call); 0 = never (env POB_RESTART_AFTER_LOADS)',
    ),
  maxRssMb: z
    .number()
    .int()
    .min(0)
    .default(1024)
    .describe(
      'restart a PoB worker, between calls, when its resident memory exceeds this many MiB (its build reloads from the store); 0 = no limit (env POB_MAX_RSS_MB)',
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
    .object({
      enabled: z.boolean().default(false).describe('list the pob_lua_* tools (env POB_LUA_ENABLED)'),
      workers: z
        .number()
        .int()
        .min(1)
        .max(32)
        .optional()
        .describe(
          'PoB worker processes, each a luajit running PoB (165 MB at start, 300-480 MB after many loads); default: one per core as memory allows, at most 4 (env POB_WORKERS)',
        ),
      maxQueued: z
        .number()
        .int()
        .min(1)
        .default(256)
        .describe('calls that may wait for a worker, all clients together; past it a call is refused as busy (env POB_MAX_QUEUED)'),
      maxQueuedPerClient: z
        .number()
        .int()
        .min(1)
        .default(32)
        .describe('calls one client may have waiting; past it that client is told to retry (env POB_MAX_QUEUED_PER_CLIENT)'),
      store: configPath()
        .optional()
        .describe(
          'folder of the build store, one <build_id>.xml per build; hosts pointed at one folder share their build_ids (default <cacheDir>/pob/builds; env POB_BUILD_STORE)',
        ),
      storeMaxBuilds: z
        .number()
        .int()
        .min(1)
        .default(2000)
        .describe('builds the store keeps; the least recently used go first (env POB_STORE_MAX_BUILDS)'),
      storeMaxMb: z
        .number()
        .int()
        .min(1)
        .default(256)
        .describe('MiB the store keeps; the least recently used builds go first (env POB_STORE_MAX_MB)'),
      storeTimeoutMs: z
        .number()
        .int()
        .positive()
        .default(5_000)
        .describe(
          'how long one read or write of the build store may take (a hung network volume); past it the call is answered unavailable and no worker waits (env POB_STORE_TIMEOUT_MS)',
        ),
    })
    .prefault({})
    .describe('live calculations through PoB itself'),
});

export type PobConfig = z.output<typeof configSchema>;

/** Settings that say what a spawned worker runs: from a file not yet approved, none of them applies. */
export const SPAWN_SETTINGS = ['cmd', 'pobPath', 'forkPath', 'args'];

export const configEnv: Record<string, string> = {
  pobPath: 'POB_PATH',
  forkPath: 'POB_FORK_PATH',
  server: 'POB_SERVER',
  game: 'POB_GAME',
  cmd: 'POB_CMD',
  args: 'POB_ARGS',
  timeoutMs: 'POB_TIMEOUT_MS',
  startTimeoutMs: 'POB_START_TIMEOUT_MS',
  loadTimeoutMs: 'POB_LOAD_TIMEOUT_MS',
  restartAfterLoads: 'POB_RESTART_AFTER_LOADS',
  maxRssMb: 'POB_MAX_RSS_MB',
  'tcp.host': 'POB_API_TCP',
  'tcp.port': 'POB_API_TCP_PORT',
  'lua.enabled': 'POB_LUA_ENABLED',
  'lua.workers': 'POB_WORKERS',
  'lua.maxQueued': 'POB_MAX_QUEUED',
  'lua.maxQueuedPerClient': 'POB_MAX_QUEUED_PER_CLIENT',
  'lua.store': 'POB_BUILD_STORE',
  'lua.storeMaxBuilds': 'POB_STORE_MAX_BUILDS',
  'lua.storeMaxMb': 'POB_STORE_MAX_MB',
  'lua.storeTimeoutMs': 'POB_STORE_TIMEOUT_MS',
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

/** Resident memory a PoB worker is allowed (or, without a limit, what one grows to over many loads). */
const WORKER_BUDGET_MB = 512;

/**
 * Workers when `lua.workers` is unset: one per core, no more than half the machine's memory holds
 * at each worker's memory limit, at least 1 and at most 4.
 */
export function defaultWorkers(
  config: Pick<PobConfig, 'maxRssMb'>,
  machine = { cores: os.availableParallelism(), memoryBytes: os.totalmem() },
): number {
  const perWorker = (config.maxRssMb > 0 ? config.maxRssMb : WORKER_BUDGET_MB) * 1024 * 1024;
  const byMemory = Math.floor(machine.memoryBytes / 2 / perWorker);
  return Math.max(1, Math.min(4, machine.cores, byMemory));
}
