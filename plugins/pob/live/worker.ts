// One PoB worker: a spawned luajit running mcphost's own server over an unmodified PoB, a spawned
// luajit running the pob-api fork's own stdio API, or (one per pool) a PoB GUI serving the fork's
// TCP API. Two dialects: mcphost's (ids echoed, `{ok, result | error:{code, message}}`) and the
// fork's (no ids, answers in order, `{ok, …fields}` or `{ok:false, error:"text"}`), which
// pob-api.ts maps onto the same tool results. The pool gives a worker one call at a time and
// keeps track of the build it holds; failures become ToolErrors that name the tool.
import type { Logger, ProgressUpdate, WithheldSetting } from '../../../src/backend/index.js';
import { ToolError, toolErrorCode, type ToolErrorCode } from '../../../src/backend/index.js';
import { ProcessError, type JsonLinesProcess, type JsonLinesTcpClient, type JsonMessage } from '../../../src/kit/json-lines/index.js';
import type { Budgets } from './budgets.js';
import { processFailure, startFailure, tcpFailure } from './bridge-errors.js';
import { linkOf, type PobConfig } from '../config.js';
import { forkAction, forkFailure, type Answer } from './pob-api.js';
import type { ServerChoice } from './server-choice.js';
import { StartProgress } from './start-progress.js';
import { processFor, tcpClientFor } from './worker-links.js';

export type Dialect = 'mcphost' | 'pob-api';

export interface WorkerStatus {
  pid?: number;
  running: boolean;
  banner?: JsonMessage;
  starts: number;
  planned: number;
  timeouts: number;
  crashes: number;
}

type OwnAnswer = { ok?: boolean; result?: unknown; error?: { code?: string; message?: string; data?: unknown }; ms?: number };

export class PobWorker {
  private process?: JsonLinesProcess;
  private tcp?: JsonLinesTcpClient;
  /** Over TCP: the connection whose dialect is known, and that dialect. */
  private greeted = 0;
  private tcpDialect?: Dialect;
  private readonly startProgress = new StartProgress();
  private starting?: Promise<void>;
  /** The child the held build was loaded into (a new child holds nothing). */
  private generation = 0;
  /** The build this worker's PoB holds, as the pool knows it. */
  private held?: { id: string; name?: string };
  /** Builds loaded since this child started (the restart policy counts them). */
  loads = 0;
  planned = 0;
  /** Time the last answered action took inside Lua (ms), as mcphost's server reported it. */
  lastLuaMs?: number;

  constructor(
    private readonly config: PobConfig,
    readonly choice: ServerChoice,
    private readonly budgets: Budgets,
    private readonly logger: Logger,
    readonly index: number,
    private readonly withheld: readonly WithheldSetting[] = [],
  ) {}

  get mode(): 'spawn' | 'tcp' {
    return linkOf(this.config).kind;
  }

  get dialect(): Dialect | undefined {
    return this.mode === 'tcp' ? this.tcpDialect : this.choice.kind;
  }

  get running(): boolean {
    return this.mode === 'tcp' ? (this.tcp?.connected ?? false) : (this.process?.running ?? false);
  }

  /** The build this worker holds, if its PoB still runs the child it was loaded into. */
  get holding(): string | undefined {
    const p = this.process;
    return this.held && p?.running && p.stats.starts === this.generation ? this.held.id : undefined;
  }

  holds(id: string, name?: string): boolean {
    return this.holding === id && (name === undefined || name === this.held!.name);
  }

  /** The build changed in a way nobody knows yet (a failed edit), or is gone. */
  forget(): void {
    this.held = undefined;
  }

  /** The held build was changed into the build `id` (an edit, exported and stored). */
  adopt(id: string): void {
    if (this.held) this.held = { ...this.held, id };
  }

  status(): WorkerStatus {
    const p = this.process;
    return {
      pid: p?.pid,
      running: this.running,
      banner: p?.banner ?? this.tcp?.banner,
      starts: p?.stats.starts ?? 0,
      planned: this.planned,
      timeouts: p?.stats.timeouts ?? 0,
      crashes: p?.stats.crashes ?? 0,
    };
  }

  rss(): Promise<number | undefined> {
    return this.process?.rss() ?? Promise.resolve(undefined);
  }

  /** Throws what keeps PoB from starting that is known without starting it (a wrong pobPath or forkPath). */
  checkSetup(): void {
    if (this.mode === 'spawn') this.spawnProcess();
  }

  /** Starts PoB if it is not running (within the start budget), reporting progress to `progress`. */
  async ensureStarted(progress?: (update: ProgressUpdate) => void): Promise<void> {
    if (this.mode === 'tcp') return;
    const proc = this.spawnProcess();
    if (proc.running && !this.starting) return;
    this.starting ??= this.startNow(proc).finally(() => (this.starting = undefined));
    const unwatch = progress ? this.startProgress.watch(progress) : undefined;
    try {
      await this.starting;
    } finally {
      unwatch?.();
    }
  }

  private async startNow(proc: JsonLinesProcess): Promise<void> {
    this.held = undefined;
    this.startProgress.reset();
    const timeoutMs = this.budgets.get('start');
    try {
      await proc.start(timeoutMs);
    } catch (error) {
      const raised = error instanceof ProcessError && error.code === 'START_TIMEOUT' ? this.budgets.raise('start', timeoutMs) : undefined;
      throw startFailure(error, this.config, this.choice, raised && this.budgets.describe('start', raised.spent, raised.next));
    }
    this.generation = proc.stats.starts;
    this.loads = 0;
    this.startProgress.ready();
  }

  /** Loads a build; the worker holds it afterwards (and nothing if the load fails). */
  async load(id: string, xml: string, name: string | undefined, tool: string): Promise<unknown> {
    this.held = undefined;
    const info = await this.call('load_build_xml', { xml, ...(name ? { name } : {}) }, tool);
    this.held = { id, name };
    this.loads++;
    return info;
  }

  /** The build as PoB saves it. */
  async exportXml(tool: string): Promise<string> {
    const { xml } = (await this.call('export_build_xml', {}, tool)) as { xml?: unknown };
    if (typeof xml !== 'string') throw new ToolError(`PoB gave no build XML back after ${tool}`, { code: 'EXPORT_FAILED' });
    return xml;
  }

  /** Runs one action of mcphost's protocol and returns its result; a failure is a ToolError carrying PoB's code. */
  async call<T = unknown>(action: string, params: Record<string, unknown>, tool: string): Promise<T> {
    const dialect = await this.prepare(tool);
    if (dialect === 'pob-api') {
      const send = async (name: string, p: Record<string, unknown> = {}): Promise<Answer> => {
        const answer = await this.send({ action: name, params: p }, tool);
        if (answer.ok !== true) throw forkFailure(answer, name);
        return answer;
      };
      return (await forkAction(send, action, params)) as T;
    }
    const answer = (await this.send({ action, params }, tool)) as OwnAnswer;
    this.lastLuaMs = typeof answer.ms === 'number' ? answer.ms : undefined;
    if (answer.ok) return answer.result as T;
    const code = luaErrorCode(answer.error?.code);
    let text = answer.error?.message ?? `PoB refused ${tool}`;
    if (code === 'NO_BUILD') text += ': load one first with pob_lua_load_build';
    throw new ToolError(text, { code, data: answer.error?.data });
  }

  /** Over TCP: connects and learns the dialect. Spawned: the dialect is the configured server's. */
  private async prepare(tool: string): Promise<Dialect> {
    if (this.mode !== 'tcp') return this.choice.kind;
    const client = this.tcpClient();
    if (!client.connected || client.connections !== this.greeted) {
      const pong = await this.send({ action: 'ping', params: {} }, tool);
      this.greeted = client.connections;
      // The fork greets each connection and answers `{ok, pong}`; mcphost's protocol answers `{id, ok, result}`.
      this.tcpDialect = 'result' in pong || (client.banner && 'protocol' in client.banner) ? 'mcphost' : 'pob-api';
    }
    return this.tcpDialect!;
  }

  private async send(message: JsonMessage, tool: string): Promise<JsonMessage> {
    if (this.mode === 'tcp') {
      const link = linkOf(this.config) as { host: string; port: number };
      try {
        return await this.tcpClient().request(message);
      } catch (error) {
        throw tcpFailure(error, link, tool, this.config.timeoutMs);
      }
    }
    const proc = this.spawnProcess();
    const kind = message.action === 'load_build_xml' ? 'load' : 'request';
    const timeoutMs = this.budgets.get(kind);
    const generation = this.generation;
    try {
      const answer = await proc.request(message, { timeoutMs });
      // The child died between calls and the request started a fresh one: it holds no build.
      if (proc.stats.starts !== generation) {
        this.held = undefined;
        this.generation = proc.stats.starts;
        if (message.action !== 'load_build_xml' && message.action !== 'ping' && message.action !== 'version')
          throw new ToolError(`PoB restarted before it could answer ${tool}; try again`, { code: 'LUA_EXITED' });
      }
      return answer;
    } catch (error) {
      if (!(error instanceof ProcessError)) throw error;
      this.held = undefined;
      const raised = error.code === 'TIMEOUT' ? this.budgets.raise(kind, timeoutMs) : undefined;
      throw processFailure(error, tool, this.config, this.choice, raised && this.budgets.describe(kind, raised.spent, raised.next));
    }
  }

  private tcpClient(): JsonLinesTcpClient {
    this.tcp ??= tcpClientFor(this.config, this.logger);
    return this.tcp;
  }

  private spawnProcess(): JsonLinesProcess {
    this.process ??= processFor(this.config, this.choice, this.logger, this.index, (line) => this.startProgress.feed(line), this.withheld);
    return this.process;
  }

  /** A planned restart (the restart policy): stops the child between calls; the next call starts a new one. */
  async recycle(reason: string): Promise<void> {
    this.planned++;
    this.logger.info(`PoB worker ${this.index + 1}: restarting (${reason})`);
    await this.stop();
  }

  /**
   * Stops what PoB is doing for a call that was cancelled: the process is killed (the next call
   * starts a new one; the builds are in the store). A PoB GUI (tcp) cannot be interrupted: its call
   * runs to the end.
   */
  async interrupt(why: string): Promise<void> {
    if (this.mode === 'tcp' || !this.process?.running) return;
    this.held = undefined;
    this.logger.info(`PoB worker ${this.index + 1}: stopping PoB (${why})`);
    await this.process.kill();
  }

  /** Stops the process (or drops the connection; a PoB GUI keeps running); the next call starts again. Idempotent. */
  async stop(): Promise<boolean> {
    const wasRunning = this.running;
    this.held = undefined;
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

/**
 * A code mcphost's Lua server answered (server.lua), as a tool error code: its `BAD_PARAMS` is
 * INVALID_ARGUMENT (a bad argument, exit 1); one the table does not hold is a LUA_ERROR.
 */
function luaErrorCode(code: unknown): ToolErrorCode {
  if (code === undefined) return 'POB_ERROR';
  return code === 'BAD_PARAMS' ? 'INVALID_ARGUMENT' : toolErrorCode(code, 'LUA_ERROR');
}
