// A long-lived child process that speaks JSON lines on stdio (spawned through execa): a ready
// banner line first, then one response line per request, correlated by id. One request is in
// flight at a time and the rest wait in a queue. A request that times out kills the child (its
// state is unknown) and the next request starts a fresh one; a child that exits mid-request fails
// that request with its exit code and last stderr lines. The child is also replaced between
// requests after N counted requests or above a memory limit, optionally carrying state across.
import { readFile } from 'node:fs/promises';
import type { ResultPromise } from 'execa';
import type { Logger } from '../../backend/types.js';
import { JsonLinesPeer, LineBuffer, PeerError, type RequestOptions } from './peer.js';

export type ProcessErrorCode = 'SPAWN' | 'EXITED' | 'START_TIMEOUT' | 'NOT_READY' | 'TIMEOUT' | 'ABORTED' | 'CLOSED';

export class ProcessError extends Error {
  readonly code: ProcessErrorCode;
  readonly command: string;
  readonly exitCode?: number;
  readonly signal?: string;
  /** The child's last stderr lines, oldest first. */
  readonly stderr: string[];
  /** The child's own message (a not-ready banner's error), when it gave one. */
  readonly detail?: unknown;
  constructor(
    code: ProcessErrorCode,
    message: string,
    info: { command: string; exitCode?: number; signal?: string; stderr?: string[]; detail?: unknown; cause?: unknown },
  ) {
    super(message, { cause: info.cause });
    this.name = 'ProcessError';
    this.code = code;
    this.command = info.command;
    this.exitCode = info.exitCode;
    this.signal = info.signal;
    this.stderr = info.stderr ?? [];
    this.detail = info.detail;
  }
}

export type JsonMessage = Record<string, unknown>;
/** Sends one message straight to a given child (used while the queue slot is already held). */
export type Requester = (message: JsonMessage, timeoutMs?: number) => Promise<JsonMessage>;

export interface JsonLinesProcessOptions {
  command: string;
  args?: string[];
  cwd?: string;
  /** The child's whole environment; the parent's is not added. */
  env?: Record<string, string | undefined>;
  /** Names the child in messages (default: the command). */
  name?: string;
  /** How long the child may take to print its banner (default 30 s). */
  startTimeoutMs?: number;
  /** Default per-request timeout (default 10 s). */
  requestTimeoutMs?: number;
  /** Judges the banner; throw to refuse it (the message becomes the start error). Default: `ready === true`. */
  checkReady?(banner: JsonMessage): void;
  /** Replace the child, between requests, after this many counted requests (0 = never). */
  restartAfter?: number;
  /** Which requests count toward `restartAfter` (default: all). */
  counts?(message: JsonMessage): boolean;
  /** Replace the child, between requests, when its resident memory exceeds this many bytes. */
  maxRssBytes?: number;
  /**
   * Carries state over a planned replacement: `save` asks the old child (it sees the request about
   * to run, and may return undefined to carry nothing), `restore` tells the new one.
   */
  preserve?: { save(request: Requester, next: JsonMessage): Promise<unknown>; restore(request: Requester, saved: unknown): Promise<void> };
  /** How many stderr lines to keep for error messages (default 20). */
  stderrLines?: number;
  /** Answers may carry no id and come in request order (see `JsonLinesPeerOptions.fifo`). */
  fifo?: boolean;
  /**
   * The child also logs on stdout (as PoB's own API does): lines that are not JSON objects are
   * logged and skipped, before the banner too, instead of failing the start.
   */
  stdoutNoise?: boolean;
  /** Every line the child prints (stdout or stderr) before its banner: lets a caller report start-up progress. */
  onStartOutput?(line: string): void;
  /** After stdin is closed, how long the child may take to exit before SIGTERM, then SIGKILL (default 2 s each). */
  stopGraceMs?: number;
  logger?: Pick<Logger, 'debug' | 'info' | 'warn'>;
}

export interface ProcessStats {
  starts: number;
  requests: number;
  planned: number;
  timeouts: number;
  crashes: number;
}

interface Child {
  proc: ResultPromise;
  peer: JsonLinesPeer;
  stderr: string[];
  banner?: JsonMessage;
  /** Settles when the child has exited and its streams are drained. */
  done: Promise<void>;
  exited: boolean;
  stopping: boolean;
  counted: number;
}

interface Task {
  message: JsonMessage;
  timeoutMs: number;
  resolve(value: JsonMessage): void;
  reject(error: Error): void;
  settled: boolean;
}

export class JsonLinesProcess {
  private readonly options: JsonLinesProcessOptions;
  private child?: Child;
  private starting?: Promise<Child>;
  private readonly queue: Task[] = [];
  private busy = false;
  private recycleDue?: string;
  private closed = false;
  private nextId = 1;
  readonly stats: ProcessStats = { starts: 0, requests: 0, planned: 0, timeouts: 0, crashes: 0 };

  constructor(options: JsonLinesProcessOptions) {
    this.options = options;
  }

  private get name(): string {
    return this.options.name ?? this.options.command;
  }

  private get commandLine(): string {
    return [this.options.command, ...(this.options.args ?? [])].join(' ');
  }

  get running(): boolean {
    return this.child !== undefined && !this.child.exited;
  }

  get pid(): number | undefined {
    return this.running ? this.child!.proc.pid : undefined;
  }

  get banner(): JsonMessage | undefined {
    return this.running ? this.child!.banner : undefined;
  }

  /** Requests waiting behind the one in flight. */
  get queued(): number {
    return this.queue.length;
  }

  /** Resident memory of the running child in bytes, when the platform tells. */
  async rss(): Promise<number | undefined> {
    const pid = this.pid;
    return pid === undefined ? undefined : residentBytes(pid);
  }

  /** Starts the child (if it is not running) and resolves with its banner. */
  async start(): Promise<JsonMessage> {
    if (this.closed) throw this.closedError();
    return (await this.ensureChild()).banner!;
  }

  /** Sends `message` (an `id` is added) once the requests before it are answered. */
  request(message: JsonMessage, options: RequestOptions = {}): Promise<JsonMessage> {
    if (this.closed) return Promise.reject(this.closedError());
    const { signal } = options;
    return new Promise<JsonMessage>((resolve, reject) => {
      const task: Task = {
        message,
        timeoutMs: options.timeoutMs ?? this.options.requestTimeoutMs ?? 10_000,
        settled: false,
        resolve: (value) => {
          if (task.settled) return;
          task.settled = true;
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        },
        reject: (error) => {
          if (task.settled) return;
          task.settled = true;
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      // A queued request is dropped; one in flight keeps its slot until the child answers or
      // times out, so the next request never overlaps it.
      const onAbort = () =>
        task.reject(new ProcessError('ABORTED', `${this.name}: request aborted`, { command: this.commandLine, cause: signal?.reason }));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(task);
      this.pump();
    });
  }

  private pump(): void {
    if (this.busy) return;
    const task = this.queue.shift();
    if (!task) return;
    if (task.settled) return this.pump();
    this.busy = true;
    void this.execute(task).finally(() => {
      this.busy = false;
      this.pump();
    });
  }

  private async execute(task: Task): Promise<void> {
    let child: Child;
    try {
      if (this.recycleDue && this.child && !this.child.exited) await this.recycle(this.recycleDue, task.message);
      child = await this.ensureChild();
    } catch (error) {
      task.reject(error as Error);
      return;
    }
    if (task.settled) return;
    try {
      const answer = await this.send(child, task.message, task.timeoutMs);
      this.stats.requests++;
      task.resolve(answer);
      await this.afterRequest(child, task.message);
    } catch (error) {
      task.reject(error as Error);
    }
  }

  private async send(child: Child, message: JsonMessage, timeoutMs: number): Promise<JsonMessage> {
    try {
      return await child.peer.request({ ...message, id: this.nextId++ }, { timeoutMs });
    } catch (error) {
      if (error instanceof PeerError && error.code === 'TIMEOUT') {
        this.stats.timeouts++;
        const what = typeof message.action === 'string' ? ` to ${message.action}` : '';
        this.options.logger?.warn(`${this.name}: no answer${what} within ${timeoutMs} ms; killing pid ${child.proc.pid}`);
        void this.stopChild(child, true);
        throw new ProcessError(
          'TIMEOUT',
          `${this.name} gave no answer${what} within ${timeoutMs} ms; it was stopped and starts afresh on the next call`,
          {
            command: this.commandLine,
            stderr: [...child.stderr],
          },
        );
      }
      throw error;
    }
  }

  private async afterRequest(child: Child, message: JsonMessage): Promise<void> {
    if (child.exited || this.recycleDue) return;
    const { restartAfter, counts, maxRssBytes } = this.options;
    if (restartAfter && (counts ? counts(message) : true) && ++child.counted >= restartAfter) {
      this.recycleDue = `after ${child.counted} counted requests`;
      return;
    }
    if (maxRssBytes) {
      const rss = await residentBytes(child.proc.pid!);
      if (rss !== undefined && rss > maxRssBytes)
        this.recycleDue = `resident memory ${Math.round(rss / 1048576)} MiB is above ${Math.round(maxRssBytes / 1048576)} MiB`;
    }
  }

  /** A planned replacement: save state from the old child, start a new one, restore it there. */
  private async recycle(reason: string, next: JsonMessage): Promise<void> {
    const old = this.child!;
    this.recycleDue = undefined;
    this.stats.planned++;
    this.options.logger?.info(`${this.name}: restarting (${reason})`);
    const preserve = this.options.preserve;
    let saved: unknown;
    if (preserve) {
      try {
        saved = await preserve.save((m, t) => this.send(old, m, t ?? this.options.requestTimeoutMs ?? 10_000), next);
      } catch (error) {
        this.options.logger?.warn(`${this.name}: could not save state before restarting: ${(error as Error).message}`);
      }
    }
    await this.stopChild(old);
    const fresh = await this.ensureChild();
    if (preserve && saved !== undefined) {
      try {
        await preserve.restore((m, t) => this.send(fresh, m, t ?? this.options.requestTimeoutMs ?? 10_000), saved);
      } catch (error) {
        this.options.logger?.warn(`${this.name}: could not restore state after restarting: ${(error as Error).message}`);
      }
    }
  }

  private ensureChild(): Promise<Child> {
    if (this.child && !this.child.exited && this.child.banner) return Promise.resolve(this.child);
    this.starting ??= this.spawn().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async spawn(): Promise<Child> {
    const { options } = this;
    // execa (a hundred modules) loads with the first child, not with every host that links the kit.
    const { execa } = await import('execa');
    const proc = execa(options.command, options.args ?? [], {
      cwd: options.cwd,
      env: options.env,
      extendEnv: options.env === undefined,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
      buffer: false,
      reject: false,
      cleanup: true,
      forceKillAfterDelay: options.stopGraceMs ?? 2_000,
    });
    this.stats.starts++;
    return new Promise<Child>((resolve, reject) => {
      let settled = false;
      const keep = options.stderrLines ?? 20;
      const fail = (error: ProcessError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void this.stopChild(child, true);
        reject(error);
      };
      const child: Child = {
        proc,
        stderr: [],
        exited: false,
        stopping: false,
        counted: 0,
        done: Promise.resolve(),
        peer: new JsonLinesPeer({
          write: (line) => void proc.stdin!.write(line),
          fifo: options.fifo,
          onStray: (line, reason) => {
            if (child.banner) {
              options.logger?.debug(`${this.name}: stray output (${reason}): ${line.slice(0, 200)}`);
              return;
            }
            if (options.stdoutNoise && (reason === 'not JSON' || reason === 'not a JSON object')) {
              options.logger?.debug(`${this.name}: ${line.slice(0, 200)}`);
              options.onStartOutput?.(line);
              return;
            }
            try {
              const banner = JSON.parse(line) as JsonMessage;
              if (banner === null || typeof banner !== 'object') throw new Error('the first line is not a JSON object');
              (options.checkReady ?? defaultCheckReady)(banner);
              child.banner = banner;
              settled = true;
              clearTimeout(timer);
              this.child = child;
              resolve(child);
            } catch (error) {
              const detail = safeParse(line);
              fail(
                new ProcessError('NOT_READY', `${this.name} did not start: ${(error as Error).message}`, {
                  command: this.commandLine,
                  stderr: [...child.stderr],
                  detail,
                }),
              );
            }
          },
        }),
      };
      const timeoutMs = options.startTimeoutMs ?? 30_000;
      const timer = setTimeout(
        () =>
          fail(
            new ProcessError('START_TIMEOUT', `${this.name} printed no ready line within ${timeoutMs} ms`, {
              command: this.commandLine,
              stderr: [...child.stderr],
            }),
          ),
        timeoutMs,
      );
      proc.stdout!.setEncoding('utf8');
      proc.stdout!.on('data', (chunk: string) => child.peer.receive(chunk));
      const errLines = new LineBuffer();
      proc.stderr!.setEncoding('utf8');
      proc.stderr!.on('data', (chunk: string) => {
        for (const line of errLines.push(chunk)) {
          child.stderr.push(line);
          if (child.stderr.length > keep) child.stderr.shift();
          options.logger?.debug(`${this.name}: ${line}`);
          if (!child.banner) options.onStartOutput?.(line);
        }
      });
      proc.stdin!.on('error', () => undefined);
      child.done = proc.then((result) => {
        child.exited = true;
        if (this.child === child) this.child = undefined;
        const exitCode = result.exitCode;
        const signal = result.signal;
        const spawnFailed = result.failed && exitCode === undefined && signal === undefined;
        const how = spawnFailed ? (result.code ?? result.shortMessage) : signal ? `signal ${signal}` : `code ${exitCode}`;
        const tail = child.stderr.length ? `; last stderr lines:\n${child.stderr.join('\n')}` : '';
        const error = spawnFailed
          ? new ProcessError('SPAWN', `cannot run ${this.commandLine}: ${how}`, { command: this.commandLine, detail: result.code })
          : !child.banner && !child.stopping
            ? new ProcessError('NOT_READY', `${this.name} exited with ${how} before it was ready${tail}`, {
                command: this.commandLine,
                exitCode,
                signal,
                stderr: [...child.stderr],
              })
            : new ProcessError(child.stopping ? 'CLOSED' : 'EXITED', `${this.name} exited with ${how}${tail}`, {
                command: this.commandLine,
                exitCode,
                signal,
                stderr: [...child.stderr],
              });
        if (!child.stopping && child.banner) {
          this.stats.crashes++;
          options.logger?.warn(`${this.name} exited with ${how}`);
        }
        child.peer.close(error);
        fail(error);
      });
    });
  }

  /** Closes stdin and waits; SIGTERM then SIGKILL if the child lingers (or at once with `kill`). */
  private async stopChild(child: Child | undefined, kill = false, graceMs = this.options.stopGraceMs ?? 2_000): Promise<void> {
    if (!child) return;
    if (this.child === child) this.child = undefined;
    if (child.exited) return child.done;
    child.stopping = true;
    if (kill) {
      child.proc.kill('SIGKILL');
      return child.done;
    }
    child.proc.stdin?.end();
    let timer: NodeJS.Timeout | undefined;
    const lingered = await Promise.race([
      child.done.then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), graceMs))),
    ]);
    clearTimeout(timer);
    if (lingered) child.proc.kill('SIGTERM');
    return child.done;
  }

  /** Stops the child (if any); the next request starts a new one. Safe to call any number of times. */
  async stop(): Promise<void> {
    const starting = this.starting;
    if (starting) await starting.catch(() => undefined);
    await this.stopChild(this.child);
  }

  /**
   * Stops the child and refuses every later request; queued requests fail. Meant for shutdown, so
   * the child gets a shorter grace (default 500 ms) before SIGTERM. Idempotent.
   */
  async close(graceMs = Math.min(500, this.options.stopGraceMs ?? 500)): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(this.closedError());
    const starting = this.starting;
    if (starting) await starting.catch(() => undefined);
    await this.stopChild(this.child, false, graceMs);
  }

  private closedError(): ProcessError {
    return new ProcessError('CLOSED', `${this.name} is shut down`, { command: this.commandLine });
  }
}

function defaultCheckReady(banner: JsonMessage): void {
  if (banner.ready === true) return;
  const error = banner.error as { message?: unknown } | string | undefined;
  const message =
    typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : 'its first line is not a ready banner';
  throw new Error(message);
}

function safeParse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

/** Resident memory of a process in bytes: /proc on Linux, `ps` elsewhere; undefined when unknown. */
export async function residentBytes(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return kb ? Number(kb[1]) * 1024 : undefined;
  } catch {
    if (process.platform === 'linux' || process.platform === 'win32') return undefined;
    const { execa } = await import('execa');
    const ps = await execa('ps', ['-o', 'rss=', '-p', String(pid)], { reject: false });
    const kb = Number(String(ps.stdout).trim());
    return ps.exitCode === 0 && Number.isFinite(kb) && kb > 0 ? kb * 1024 : undefined;
  }
}
