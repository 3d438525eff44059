// The bridge to PoB's Lua side: a spawned luajit running the project's server script over an
// unmodified PoB, or a PoB GUI speaking the same JSON-lines API over TCP. It turns answers into
// results and failures into ToolErrors that say what to do.
import type { Logger } from '../../src/backend/index.js';
import { ToolError, UnavailableError } from '../../src/backend/index.js';
import { JsonLinesProcess, ProcessError, type JsonMessage, ConnectError, JsonLinesTcpClient, PeerError } from '../../src/kit/index.js';
import { linkOf, type PobConfig } from './config.js';
import { INSTALL_HINT, checkPobPath, spawnEnvironment } from './pob-files.js';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface BridgeStatus {
  mode: 'spawn' | 'tcp';
  running: boolean;
  pid?: number;
  pobPath?: string;
  endpoint?: string;
  banner?: JsonMessage;
  starts?: number;
  restarts?: { planned: number; timeouts: number; crashes: number };
}

type Answer = { ok?: boolean; result?: unknown; error?: { code?: string; message?: string; data?: unknown }; ms?: number };

export class PobBridge {
  private readonly config: PobConfig;
  private readonly logger: Logger;
  private process?: JsonLinesProcess;
  private tcp?: JsonLinesTcpClient;
  private tcpQueue: Promise<unknown> = Promise.resolve();
  /** A build is loaded in the current process. */
  private loaded = false;
  /** Why the last loaded build was lost (a timeout or crash), for the next NO_BUILD answer. */
  private lost?: string;
  /** Time the last answered action took inside Lua (ms), as the server reported it. */
  lastLuaMs?: number;

  constructor(config: PobConfig, logger: Logger) {
    this.config = config;
    this.logger = logger;
  }

  get mode(): 'spawn' | 'tcp' {
    return linkOf(this.config).kind;
  }

  /** Starts (or connects) and returns what is running. */
  async start(options: CallOptions = {}): Promise<BridgeStatus> {
    if (this.mode === 'tcp') {
      await this.call('ping', {}, options);
      return this.status();
    }
    const proc = this.spawnProcess();
    try {
      await proc.start();
    } catch (error) {
      throw this.startError(error);
    }
    return this.status();
  }

  status(): BridgeStatus {
    const link = linkOf(this.config);
    if (link.kind === 'tcp') return { mode: 'tcp', running: this.tcp?.connected ?? false, endpoint: `${link.host}:${link.port}` };
    const p = this.process;
    return {
      mode: 'spawn',
      running: p?.running ?? false,
      pid: p?.pid,
      pobPath: this.config.pobPath,
      banner: p?.banner,
      starts: p?.stats.starts ?? 0,
      restarts: p ? { planned: p.stats.planned, timeouts: p.stats.timeouts, crashes: p.stats.crashes } : undefined,
    };
  }

  /** Sends one action and returns its result; a failure is a ToolError carrying PoB's code. */
  async call<T = any>(action: string, params: Record<string, unknown> = {}, options: CallOptions = {}): Promise<T> {
    const message = { action, params };
    const answer = (await (this.mode === 'tcp' ? this.viaTcp(message, options) : this.viaProcess(message, options))) as Answer;
    this.lastLuaMs = typeof answer.ms === 'number' ? answer.ms : undefined;
    if (answer.ok) {
      if (action === 'load_build_xml') {
        this.loaded = true;
        this.lost = undefined;
      }
      return answer.result as T;
    }
    const code = answer.error?.code ?? 'POB_ERROR';
    let text = answer.error?.message ?? `PoB refused ${action}`;
    if (action === 'load_build_xml') this.loaded = false;
    if (code === 'NO_BUILD' && this.lost) text += ` (the build loaded before was lost: ${this.lost})`;
    throw new ToolError(text, { code, data: answer.error?.data });
  }

  private async viaProcess(message: JsonMessage, options: CallOptions): Promise<JsonMessage> {
    const proc = this.spawnProcess();
    try {
      return await proc.request(message, { signal: options.signal });
    } catch (error) {
      if (!(error instanceof ProcessError)) throw error;
      if (error.code === 'SPAWN' || error.code === 'NOT_READY' || error.code === 'START_TIMEOUT') throw this.startError(error);
      if (error.code === 'TIMEOUT' || error.code === 'EXITED') {
        if (this.loaded)
          this.lost =
            error.code === 'TIMEOUT'
              ? `PoB timed out on ${String(message.action)} and was restarted`
              : `PoB exited during ${String(message.action)}`;
        this.loaded = false;
        throw new ToolError(error.message, {
          code: error.code === 'TIMEOUT' ? 'LUA_TIMEOUT' : 'LUA_EXITED',
          data: { exitCode: error.exitCode, signal: error.signal, stderr: error.stderr },
        });
      }
      if (error.code === 'CLOSED') throw new UnavailableError('the PoB bridge is shut down');
      throw error;
    }
  }

  private viaTcp(message: JsonMessage, options: CallOptions): Promise<JsonMessage> {
    const link = linkOf(this.config) as { host: string; port: number };
    this.tcp ??= new JsonLinesTcpClient({
      host: link.host,
      port: link.port,
      connectTimeoutMs: 3_000,
      requestTimeoutMs: this.config.timeoutMs,
    });
    const client = this.tcp;
    // PoB is single-threaded: one request at a time over the connection too.
    const run = this.tcpQueue.then(async () => {
      try {
        return await client.request(message, { signal: options.signal });
      } catch (error) {
        if (error instanceof ConnectError) {
          throw new UnavailableError(
            `cannot reach PoB at ${link.host}:${link.port} (${error.message}): start Path of Building with its JSON-lines API listening there, or remove plugins.pob.tcp (POB_API_TCP) to spawn luajit instead`,
            { cause: error },
          );
        }
        if (error instanceof PeerError && error.code === 'TIMEOUT') {
          throw new ToolError(
            `PoB at ${link.host}:${link.port} gave no answer to ${String(message.action)} within ${this.config.timeoutMs} ms; the connection was closed`,
            { code: 'LUA_TIMEOUT' },
          );
        }
        if (error instanceof PeerError && error.code === 'CLOSED')
          throw new UnavailableError(`${error.message}: is PoB still running?`, { cause: error });
        throw error;
      }
    });
    this.tcpQueue = run.catch(() => undefined);
    return run;
  }

  private spawnProcess(): JsonLinesProcess {
    const check = checkPobPath(this.config.pobPath);
    if (!check.ok)
      throw new UnavailableError(`PoB cannot start: ${check.problem}`, { data: { missing: check.missing, pobPath: check.path } });
    if (this.process) return this.process;
    const { cwd, env, script } = spawnEnvironment(check.path!);
    const { config } = this;
    this.process = new JsonLinesProcess({
      command: config.cmd,
      args: [script],
      cwd,
      env,
      name: 'PoB (luajit)',
      startTimeoutMs: config.startTimeoutMs,
      requestTimeoutMs: config.timeoutMs,
      restartAfter: config.restartAfterLoads,
      counts: (m) => m.action === 'load_build_xml',
      maxRssBytes: config.maxRssMb > 0 ? config.maxRssMb * 1024 * 1024 : undefined,
      logger: this.logger,
      preserve: {
        // The current build moves to the new process, unless the next request replaces it anyway.
        save: async (send, next) => {
          if (!this.loaded || next.action === 'load_build_xml') return undefined;
          const answer = (await send({ action: 'export_build_xml', params: {} })) as Answer;
          return answer.ok ? (answer.result as { xml: string }).xml : undefined;
        },
        restore: async (send, saved) => {
          const answer = (await send({ action: 'load_build_xml', params: { xml: saved, name: 'mcphost' } }, config.timeoutMs * 2).catch(
            (error: Error) => ({
              ok: false,
              error: { message: error.message },
            }),
          )) as Answer;
          if (!answer.ok) {
            this.loaded = false;
            this.lost = `PoB was restarted and could not reload it (${answer.error?.message})`;
          }
        },
      },
    });
    return this.process;
  }

  private startError(error: unknown): Error {
    if (!(error instanceof ProcessError)) return error as Error;
    const { cmd, pobPath } = this.config;
    const tail = error.stderr.length ? `\nlast stderr lines:\n${error.stderr.join('\n')}` : '';
    const detail = error.detail as { error?: { code?: string; message?: string } } | undefined;
    let message: string;
    if (error.code === 'SPAWN')
      message = `cannot run \`${cmd}\` (${String(error.detail ?? error.message)}): ${INSTALL_HINT}, or set plugins.pob.cmd (POB_CMD) to the luajit binary`;
    else if (error.code === 'START_TIMEOUT')
      message = `${error.message}; raise plugins.pob.startTimeoutMs (POB_START_TIMEOUT_MS) if the machine is slow${tail}`;
    else if (detail?.error?.code === 'NO_ZLIB') message = detail.error.message ?? INSTALL_HINT;
    else if (detail?.error?.code === 'POB_INIT')
      message = `${detail.error.message}; check that ${pobPath} is an intact Path of Building Community checkout${tail}`;
    else
      message = `PoB did not start: ${error.message}; check that ${pobPath} is an intact Path of Building Community checkout and that ${INSTALL_HINT}`;
    return new UnavailableError(message, { cause: error, data: { code: error.code, exitCode: error.exitCode, stderr: error.stderr } });
  }

  /** Stops the process (or drops the connection); the next call starts again. Idempotent. */
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
