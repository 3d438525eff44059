// The PoB workers behind the pob_lua_* tools: N luajit processes (or one PoB GUI over TCP), a
// fair queue in front of them, and the build store behind them. A call names the build it works
// on; it runs on a worker that already holds that build, or the build is loaded there from the
// store first. A call that changes the build is followed by an export: the new build goes into
// the store and its id is answered. The caller's deadline never stops a worker mid-calculation:
// the caller is answered at once, the worker finishes (a load it finishes is then held, so the
// retry finds it) and its own budgets (budgets.ts) decide when it is stuck. A caller that cancels
// does stop it: the worker's PoB is killed (it starts afresh on the next call), so a cancelled
// 30-second load does not hold a worker that others wait for.
import path from 'node:path';
import { ToolError, UnavailableError, type Logger, type ProgressUpdate, type WithheldSetting } from '../../../src/backend/index.js';
import { Budgets } from './budgets.js';
import { abortable, CallStages, cancelled } from './call-stages.js';
import { defaultWorkers, linkOf, type PobConfig } from '../config.js';
import { FairQueue } from './scheduler.js';
import { chooseServer, type ServerChoice } from './server-choice.js';
import { BuildStore } from './store.js';
import { PobWorker, type Dialect, type WorkerStatus } from './worker.js';

export interface PoolTask<T> {
  /** Whose call (ctx.client.caller, the same across a caller's 2026-era requests): the fairness key. */
  client: string;
  tool: string;
  /** The stored build the call works on; the worker loads it first unless it holds it. */
  build?: string;
  /** The call loads this build (already in the store). */
  load?: { id: string; xml: string; name?: string };
  /** The call changes the build: afterwards it is exported, stored, and its new id answered. */
  mutates?: boolean;
  signal?: AbortSignal;
  progress?: (update: ProgressUpdate) => void;
  run?(worker: PobWorker): Promise<T>;
}

export interface PoolAnswer<T> {
  value: T;
  /** The build the call worked on, or the new one when it changed the build. */
  buildId?: string;
}

export interface PoolStatus {
  mode: 'spawn' | 'tcp';
  server?: Dialect;
  running: boolean;
  pid?: number;
  pobPath?: string;
  forkPath?: string;
  endpoint?: string;
  banner?: Record<string, unknown>;
  starts?: number;
  restarts?: { planned: number; timeouts: number; crashes: number };
  workers?: Array<{ pid?: number; running: boolean }>;
  queued?: number;
}

/** Errors that PoB gives before it changes anything (mcphost's server checks every input first). */
const UNCHANGED = new Set(['INVALID_ARGUMENT', 'BAD_CONFIG', 'UNKNOWN_NODES']);
const MiB = 1024 * 1024;

export class PobPool {
  readonly choice: ServerChoice;
  readonly store: BuildStore;
  readonly budgets: Budgets;
  private readonly workers: PobWorker[];
  private readonly queue: FairQueue;

  constructor(
    private readonly config: PobConfig,
    logger: Logger,
    cacheDir: string,
    withheld: readonly WithheldSetting[] = [],
  ) {
    this.choice = chooseServer(config);
    this.budgets = new Budgets(config, logger);
    const count = linkOf(config).kind === 'tcp' ? 1 : (config.lua.workers ?? defaultWorkers(config));
    this.workers = Array.from({ length: count }, (_, i) => new PobWorker(config, this.choice, this.budgets, logger, i, withheld));
    this.queue = new FairQueue(count, { total: config.lua.maxQueued, perClient: config.lua.maxQueuedPerClient });
    this.store = new BuildStore({
      dir: config.lua.store ?? path.join(cacheDir, 'builds'),
      maxBuilds: config.lua.storeMaxBuilds,
      maxBytes: config.lua.storeMaxMb * MiB,
      timeoutMs: config.lua.storeTimeoutMs,
      logger,
    });
  }

  get mode(): 'spawn' | 'tcp' {
    return linkOf(this.config).kind;
  }

  /** Builds are values (a build_id per build) with spawned workers; a PoB GUI holds its own build, shared by everyone. */
  get buildsAsValues(): boolean {
    return this.mode === 'spawn';
  }

  get size(): number {
    return this.workers.length;
  }

  /** Calls waiting for a worker now. */
  get queued(): number {
    return this.queue.queued;
  }

  /** Throws what keeps PoB from starting that is known without starting it (a wrong pobPath or forkPath). */
  checkSetup(): void {
    this.workers[0].checkSetup();
  }

  /** Queues the call, runs it on a worker, and answers; the caller's signal ends the wait, never the worker's work. */
  async run<T>(task: PoolTask<T>): Promise<PoolAnswer<T>> {
    const values = this.buildsAsValues;
    // An id nobody here holds or has seen is looked up before the call waits its turn.
    const build = task.build;
    if (values && build && !this.workers.some((w) => w.holding === build) && !this.store.knows(build) && !(await this.store.has(build)))
      throw this.unknownBuild(build);
    const key = values ? (task.build ?? task.load?.id) : undefined;
    const stages = new CallStages(task.progress);
    if (this.queue.busy === this.size) stages.stage(0, `waiting for a PoB worker (${this.size} busy, ${this.queue.queued} calls waiting)`);
    const slot = await this.queue.acquire({ client: task.client, key, changesKey: task.mutates }, task.signal);
    const worker = this.workers[slot];
    const work = this.execute(worker, task, stages);
    void work
      .then(
        () => this.afterCall(worker),
        () => undefined,
      )
      .catch(() => undefined)
      .finally(() => this.queue.release(slot, worker.holding));
    return abortable(work, task.signal, () => void worker.interrupt(`${task.tool} was cancelled`));
  }

  private async execute<T>(w: PobWorker, task: PoolTask<T>, stages: CallStages): Promise<PoolAnswer<T>> {
    // Between steps a cancelled call goes no further (a start under way cannot be cut short). Only
    // the steps that take time are reported: a call on a warm worker sends no progress at all.
    const step = (progress?: number, message?: string) => {
      if (cancelled(task.signal)) throw task.signal!.reason;
      if (progress !== undefined) stages.stage(progress, message!);
    };
    await w.ensureStarted(stages.start);
    step();
    if (!this.buildsAsValues) {
      const value = task.load
        ? await w.call('load_build_xml', { xml: task.load.xml, ...(task.load.name ? { name: task.load.name } : {}) }, task.tool)
        : undefined;
      return { value: task.run ? await task.run(w) : (value as T) };
    }
    if (task.build && !w.holds(task.build)) {
      const xml = await this.store.get(task.build);
      if (xml === undefined) throw this.unknownBuild(task.build);
      step(65, 'loading the build from the build store into PoB');
      await w.load(task.build, xml, undefined, task.tool);
    }
    let value: unknown;
    if (task.load) {
      const { id, xml, name } = task.load;
      step(70, 'PoB is loading and calculating the build');
      // A build this worker holds as loaded is not loaded again: a retried load finds the one
      // that finished after its caller gave up.
      value = w.holds(id, name) ? await w.call('get_build_info', {}, task.tool) : await w.load(id, xml, name, task.tool);
    }
    if (task.run) {
      step();
      try {
        value = await task.run(w);
      } catch (error) {
        if (!(error instanceof ToolError && UNCHANGED.has(String(error.code)))) w.forget();
        throw error;
      }
    }
    const buildId = task.build ?? task.load?.id;
    if (!task.mutates) return { value: value as T, buildId };
    try {
      const id = await this.store.put(await w.exportXml(task.tool));
      w.adopt(id);
      return { value: value as T, buildId: id };
    } catch (error) {
      w.forget();
      throw error;
    }
  }

  /** The restart policy: a worker that loaded many builds, or grew too large, is restarted between calls. */
  private async afterCall(w: PobWorker): Promise<void> {
    if (!this.buildsAsValues || !w.running) return;
    const { restartAfterLoads, maxRssMb } = this.config;
    if (restartAfterLoads > 0 && w.loads >= restartAfterLoads) return w.recycle(`after ${w.loads} build loads`);
    if (maxRssMb <= 0) return;
    const rss = await w.rss();
    if (rss !== undefined && rss > maxRssMb * MiB)
      return w.recycle(`resident memory ${Math.round(rss / MiB)} MiB is above ${maxRssMb} MiB`);
  }

  /** Starts every worker (progress from the first). */
  async start(progress?: (update: ProgressUpdate) => void): Promise<void> {
    await Promise.all(this.workers.map((w, i) => w.ensureStarted(i === 0 ? progress : undefined)));
  }

  status(): PoolStatus {
    const first = this.workers[0];
    if (this.mode === 'tcp') {
      const link = linkOf(this.config) as { host: string; port: number };
      const s = first.status();
      return {
        mode: 'tcp',
        ...(first.dialect ? { server: first.dialect } : {}),
        running: s.running,
        endpoint: `${link.host}:${link.port}`,
        ...(s.banner ? { banner: s.banner } : {}),
      };
    }
    const all: WorkerStatus[] = this.workers.map((w) => w.status());
    const sum = (k: 'starts' | 'planned' | 'timeouts' | 'crashes') => all.reduce((n, s) => n + s[k], 0);
    const up = all.find((s) => s.running);
    return {
      mode: 'spawn',
      server: this.choice.kind,
      running: up !== undefined,
      pid: up?.pid,
      ...(this.choice.kind === 'mcphost' ? { pobPath: this.choice.pobPath } : { forkPath: this.choice.src }),
      banner: up?.banner,
      starts: sum('starts'),
      restarts: { planned: sum('planned'), timeouts: sum('timeouts'), crashes: sum('crashes') },
      workers: all.map((s) => ({ pid: s.pid, running: s.running })),
      queued: this.queue.queued,
    };
  }

  /** Stops every worker once its call in progress ends (the next call starts one again). True when one was running. */
  async stop(): Promise<boolean> {
    const stopped = await Promise.all(
      this.workers.map(async (w, slot) => {
        await this.queue.acquire({ client: 'pob:stop', slot, changesKey: true });
        try {
          return await w.stop();
        } finally {
          this.queue.release(slot, undefined);
        }
      }),
    );
    return stopped.some(Boolean);
  }

  /** Stops for good (host shutdown): waiting calls fail, workers exit. Idempotent. */
  async close(): Promise<void> {
    this.queue.close(new UnavailableError('the PoB workers are shut down'));
    await Promise.all(this.workers.map((w) => w.close()));
  }

  private unknownBuild(id: string): ToolError {
    const { storeMaxBuilds, storeMaxMb } = this.config.lua;
    return new ToolError(
      `build_id ${id} is not in the build store: load the build with pob_lua_load_build (build_xml or code), which answers its build_id. ` +
        `The store keeps the ${storeMaxBuilds} most recently used builds (${storeMaxMb} MiB), shared by every host pointed at the same plugins.pob.lua.store folder`,
      { code: 'UNKNOWN_BUILD', data: { build_id: id } },
    );
  }
}
