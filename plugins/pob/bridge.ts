// The bridge to PoB's Lua side. Three links: a spawned luajit running mcphost's own server over an
// unmodified PoB, a spawned luajit running the pob-api fork's own stdio API, or a PoB GUI serving
// the fork's TCP API. Two dialects: mcphost's (ids echoed, `{ok, result | error:{code, message}}`)
// and the fork's (no ids, answers in order, `{ok, …fields}` or `{ok:false, error:"text"}`), which
// pob-api.ts maps onto the same tool results. Failures become ToolErrors that name the tool.
import type { Logger, ProgressUpdate } from '../../src/backend/index.js';
import { ToolError, UnavailableError } from '../../src/backend/index.js';
import { JsonLinesProcess, type JsonMessage, JsonLinesTcpClient } from '../../src/kit/index.js';
import { linkOf, type PobConfig } from './config.js';
import { Lane } from './lane.js';
import { forkAction, forkFailure, type Answer } from './pob-api.js';
import { checkForkPath, checkPobPath, forkSpawnEnvironment, spawnEnvironment } from './pob-files.js';
import { chooseServer, type ServerChoice } from './server-choice.js';
import { StartProgress } from './start-progress.js';
import { processFailure, startFailure, tcpFailure } from './bridge-errors.js';

export interface CallOptions {
  signal?: AbortSignal;
  /** Start-up progress, when this call has to start PoB. */
  progress?: (update: ProgressUpdate) => void;
  /** The tool this call serves, for messages (default: the tool behind the action). */
  tool?: string;
}

export type Dialect = 'mcphost' | 'pob-api';

export interface BridgeStatus {
  mode: 'spawn' | 'tcp';
  /** Which protocol PoB speaks: mcphost's own server, or the pob-api fork's API (unknown over TCP until connected). */
  server?: Dialect;
  running: boolean;
  pid?: number;
  pobPath?: string;
  forkPath?: string;
  endpoint?: string;
  banner?: JsonMessage;
  starts?: number;
  restarts?: { planned: number; timeouts: number; crashes: number };
}

type OwnAnswer = { ok?: boolean; result?: unknown; error?: { code?: string; message?: string; data?: unknown }; ms?: number };

const TOOL_OF: Record<string, string> = {
  load_build_xml: 'pob_lua_load_build',
  export_build_xml: 'pob_lua_export_build',
  ping: 'pob_lua_start',
  version: 'pob_lua_start',
};
export const toolOf = (action: string): string => TOOL_OF[action] ?? `pob_lua_${action}`;

/** The fork's greeting: `{ok:true, ready:true, version:{…}}` (TcpServer.lua, Server.lua). */
const isGreeting = (m: Record<string, unknown>) => typeof m.ready === 'boolean' && !('id' in m);

export class PobBridge {
  private readonly config: PobConfig;
  private readonly logger: Logger;
  readonly choice: ServerChoice;
  private process?: JsonLinesProcess;
  private tcp?: JsonLinesTcpClient;
  /** Over TCP: the connection whose dialect is known, and that dialect. */
  private greeted = 0;
  private tcpDialect?: Dialect;
  /** One call at a time: a fork call is several requests that must not interleave with another call's. */
  private readonly lane = new Lane();
  private readonly startProgress = new StartProgress();
  /** A build is loaded in the current process (mcphost's server answers NO_BUILD otherwise). */
  private loaded = false;
  /** Why the last loaded build was lost (a timeout or crash), for the next NO_BUILD answer. */
  private lost?: string;
  /** Time the last answered action took inside Lua (ms), as mcphost's server reported it. */
  lastLuaMs?: number;

  constructor(config: PobConfig, logger: Logger) {
    this.config = config;
    this.logger = logger;
    this.choice = chooseServer(config);
  }

  get mode(): 'spawn' | 'tcp' {
    return linkOf(this.config).kind;
  }

  get dialect(): Dialect | undefined {
    if (this.mode === 'tcp') return this.tcpDialect;
    return this.choice.kind;
  }

  /** Starts (or connects) and returns what is running. */
  async start(options: CallOptions = {}): Promise<BridgeStatus> {
    await this.call('ping', {}, { ...options, tool: options.tool ?? 'pob_lua_start' });
    return this.status();
  }

  status(): BridgeStatus {
    const link = linkOf(this.config);
    if (link.kind === 'tcp')
      return {
        mode: 'tcp',
        ...(this.tcpDialect ? { server: this.tcpDialect } : {}),
        running: this.tcp?.connected ?? false,
        endpoint: `${link.host}:${link.port}`,
        ...(this.tcp?.banner ? { banner: this.tcp.banner } : {}),
      };
    const p = this.process;
    const where = this.choice.kind === 'mcphost' ? { pobPath: this.choice.pobPath } : { forkPath: this.choice.src };
    return {
      mode: 'spawn',
      server: this.choice.kind,
      running: p?.running ?? false,
      pid: p?.pid,
      ...where,
      banner: p?.banner,
      starts: p?.stats.starts ?? 0,
      restarts: p ? { planned: p.stats.planned, timeouts: p.stats.timeouts, crashes: p.stats.crashes } : undefined,
    };
  }

  /** Runs one action and returns its result; a failure is a ToolError carrying PoB's code and naming the tool. */
  call<T = any>(action: string, params: Record<string, unknown> = {}, options: CallOptions = {}): Promise<T> {
    const tool = options.tool ?? toolOf(action);
    return this.lane.run(() => this.run(action, params, { ...options, tool }), options.signal) as Promise<T>;
  }

  private async run(action: string, params: Record<string, unknown>, options: CallOptions & { tool: string }): Promise<unknown> {
    const dialect = await this.prepare(options);
    if (dialect === 'pob-api') {
      const send = async (name: string, p: Record<string, unknown> = {}, how: { always?: boolean } = {}): Promise<Answer> => {
        const answer = await this.send({ action: name, params: p }, how.always ? { ...options, signal: undefined } : options);
        if (answer.ok !== true) throw forkFailure(answer, name);
        return answer;
      };
      try {
        const result = await forkAction(send, action, params);
        if (action === 'load_build_xml') this.loaded = true;
        return result;
      } catch (error) {
        // PoB is left on an empty build: nothing to carry over a restart.
        if (action === 'load_build_xml') this.loaded = false;
        throw error;
      }
    }
    const answer = (await this.send({ action, params }, options)) as OwnAnswer;
    this.lastLuaMs = typeof answer.ms === 'number' ? answer.ms : undefined;
    if (answer.ok) {
      if (action === 'load_build_xml') {
        this.loaded = true;
        this.lost = undefined;
      }
      return answer.result;
    }
    const code = answer.error?.code ?? 'POB_ERROR';
    let text = answer.error?.message ?? `PoB refused ${options.tool}`;
    if (action === 'load_build_xml') this.loaded = false;
    if (code === 'NO_BUILD')
      text += `: load one first with pob_lua_load_build${this.lost ? ` (the build loaded before was lost: ${this.lost})` : ''}`;
    throw new ToolError(text, { code, data: answer.error?.data });
  }

  /** Starts PoB (reporting progress) or connects, and tells which dialect it speaks. */
  private async prepare(options: CallOptions & { tool: string }): Promise<Dialect> {
    if (this.mode === 'tcp') {
      const client = this.tcpClient();
      if (!client.connected || client.connections !== this.greeted) {
        const pong = await this.send({ action: 'ping', params: {} }, options);
        this.greeted = client.connections;
        // The fork greets each connection and answers `{ok, pong}`; mcphost's protocol answers `{id, ok, result}`.
        this.tcpDialect = 'result' in pong || (client.banner && 'protocol' in client.banner) ? 'mcphost' : 'pob-api';
      }
      return this.tcpDialect!;
    }
    const proc = this.spawnProcess();
    if (!proc.running) {
      this.startProgress.reset();
      const unwatch = options.progress ? this.startProgress.watch(options.progress) : undefined;
      try {
        await proc.start();
        this.startProgress.ready();
      } catch (error) {
        throw startFailure(error, this.config, this.choice);
      } finally {
        unwatch?.();
      }
    }
    return this.choice.kind;
  }

  private async send(message: JsonMessage, options: CallOptions & { tool: string }): Promise<JsonMessage> {
    if (this.mode === 'tcp') {
      const link = linkOf(this.config) as { host: string; port: number };
      try {
        return await this.tcpClient().request(message, { signal: options.signal });
      } catch (error) {
        throw tcpFailure(error, link, options.tool, this.config.timeoutMs);
      }
    }
    try {
      return await this.spawnProcess().request(message, { signal: options.signal });
    } catch (error) {
      const failure = processFailure(error, options.tool, this.config, this.choice);
      if (failure.lost && this.loaded) this.lost = failure.lost;
      if (failure.lost) this.loaded = false;
      throw failure.error;
    }
  }

  private tcpClient(): JsonLinesTcpClient {
    const link = linkOf(this.config) as { host: string; port: number };
    this.tcp ??= new JsonLinesTcpClient({
      host: link.host,
      port: link.port,
      connectTimeoutMs: 3_000,
      requestTimeoutMs: this.config.timeoutMs,
      fifo: true,
      isBanner: isGreeting,
      onStray: (line, reason) => this.logger.debug(`PoB at ${link.host}:${link.port}: stray line (${reason}): ${line.slice(0, 200)}`),
    });
    return this.tcp;
  }

  private spawnProcess(): JsonLinesProcess {
    if (this.process) return this.process;
    const { config, choice } = this;
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
    this.process = new JsonLinesProcess({
      ...spawn,
      name: fork ? 'PoB (pob-api fork)' : 'PoB (luajit)',
      startTimeoutMs: config.startTimeoutMs,
      requestTimeoutMs: config.timeoutMs,
      restartAfter: config.restartAfterLoads,
      counts: (m) => m.action === 'load_build_xml',
      maxRssBytes: config.maxRssMb > 0 ? config.maxRssMb * 1024 * 1024 : undefined,
      logger: this.logger,
      // The fork logs on stdout and echoes no ids; its banner is `{ok, ready, version}`.
      fifo: fork,
      stdoutNoise: fork,
      onStartOutput: (line) => this.startProgress.feed(line),
      preserve: {
        // The current build moves to the new process, unless the next request replaces it anyway.
        save: async (send, next) => {
          if (!this.loaded || next.action === 'load_build_xml') return undefined;
          const answer = await send({ action: 'export_build_xml', params: {} });
          const xml = fork ? answer.xml : (answer.result as { xml?: unknown } | undefined)?.xml;
          return answer.ok === true && typeof xml === 'string' ? xml : undefined;
        },
        restore: async (send, saved) => {
          const answer = (await send({ action: 'load_build_xml', params: { xml: saved, name: 'mcphost' } }, config.timeoutMs * 2).catch(
            (error: Error) => ({ ok: false, error: { message: error.message } }),
          )) as Answer;
          if (answer.ok !== true) {
            this.loaded = false;
            const why = typeof answer.error === 'string' ? answer.error : (answer.error as { message?: string } | undefined)?.message;
            this.lost = `PoB was restarted and could not reload it (${why})`;
          }
        },
      },
    });
    return this.process;
  }

  /** Stops the process (or drops the connection; a PoB GUI keeps running); the next call starts again. Idempotent. */
  async stop(): Promise<boolean> {
    const wasRunning = this.process?.running ?? this.tcp?.connected ?? false;
    this.loaded = false;
    this.lost = undefined;
    await this.process?.stop();
    this.tcp?.close();
    return wasRunning;
  }

  /** Stops for good (host shutdown). Idempotent. */
  async close(): Promise<void> {
    await this.process?.close();
    this.tcp?.close();
  }
}
