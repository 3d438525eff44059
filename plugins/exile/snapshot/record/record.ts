// Records a snapshot through the HUD's explore tool only. Breadth-first from the roots, one
// `explore <path>` per object (depth 1) or collection (depth 2 up to 1,000 items: they come with
// their members), several in flight at once, results built strictly in queue order so ids and
// placement do not depend on timing and every object is recorded where it is nearest a root. Identity rules
// (identity.ts) turn shared and circular references into $id / $ref, most of them before a
// call is spent. A budget on calls, objects and seconds (budget.ts) always ends the
// recording; what it cut is said in the header. Type metadata comes from types.ts.
import { setMaxListeners } from 'node:events';
import { ToolError, type Logger, type ProgressUpdate } from '../../../../src/backend/index.js';
import type { ExileProvider } from '../../provider.js';
import { HUD_ROOTS, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type SnapshotDocument, type SnapshotValue } from '../format.js';
import { RecordBudget, type BudgetLimits, type CutReason } from './budget.js';
import { GraphBuilder, type Job } from './graph.js';
import { Identities } from './identity.js';
import { TypeBook } from './types.js';
import { learnWrites } from './learn.js';
import { unwrapResult, type ExploreNode } from './values.js';

export interface RecordOptions extends BudgetLimits {
  /** Roots to record (default: every root the HUD lists except Files and Memory). */
  roots?: string[];
  /** Object levels below each root (default 8). */
  depth?: number;
  /** Items recorded per collection (default and maximum 10,000). */
  items?: number;
  /** Globs of extra types whose metadata to record (`*` for all), besides the types met. */
  types?: string[];
  /** Explore calls in flight at once (default 8). */
  concurrency?: number;
  progress?(update: ProgressUpdate): void;
  signal?: AbortSignal;
  logger?: Logger;
  /** Extra `source` fields for the header (the HUD's URL). */
  source?: Record<string, unknown>;
  /** Learn the HUD's forms from a few evals after the walk (default true; record/learn.ts). */
  learn?: boolean;
}

const SKIPPED_BY_DEFAULT = new Set(['Files', 'Memory']);
const TIME_UP = Symbol('time up');
/**
 * Collections up to this many items are explored two levels deep (the items come with their
 * members: one call for a list of entities); bigger ones one level, their items explored one by one,
 * so no single answer grows past a few megabytes.
 */
const EXPAND_ITEMS_UP_TO = 1000;

interface Outcome {
  job: Job;
  node?: ExploreNode;
  error?: unknown;
}

export async function recordSnapshot(remote: ExileProvider, options: RecordOptions = {}): Promise<SnapshotDocument> {
  return new Recorder(remote, options).run();
}

class Recorder {
  private readonly depth: number;
  private readonly items: number;
  private readonly concurrency: number;
  private readonly budget: RecordBudget;
  private readonly calls = new AbortController();
  private readonly types: TypeBook;
  private readonly identities: Identities;
  private readonly queue: Job[] = [];
  private readonly outcomes = new Map<number, Outcome>();
  private inFlight = 0;
  /** Calls to the HUD under way (jobs and type look-ups), and those waiting for a place. */
  private calling = 0;
  private readonly waiting: Array<() => void> = [];
  private dispatched = 0;
  private built = 0;
  private readonly graph: GraphBuilder;
  private lastPath = '';

  constructor(
    private readonly remote: ExileProvider,
    private readonly options: RecordOptions,
  ) {
    this.depth = options.depth ?? 8;
    this.items = Math.min(options.items ?? 10_000, 10_000);
    this.concurrency = Math.max(1, options.concurrency ?? 8);
    this.budget = new RecordBudget(options);
    // Every call listens on the recording's signal; `concurrency` of them at a time.
    setMaxListeners(this.concurrency + 8, this.calls.signal);
    this.types = new TypeBook((name) => (this.budget.spent() ? undefined : this.explore(`type:${name}`, 0)));
    this.identities = new Identities((type) => this.types.bases(type));
    this.graph = new GraphBuilder(this.identities, this.types, this.budget, (job) => this.queue.push(job), options.logger);
  }

  async run(): Promise<SnapshotDocument> {
    const signal = this.options.signal;
    const cancel = () => this.calls.abort(signal!.reason);
    signal?.addEventListener('abort', cancel, { once: true });
    const timer = setTimeout(() => {
      this.budget.expire();
      this.calls.abort(TIME_UP);
    }, this.budget.maxSeconds * 1000);
    timer.unref();
    try {
      return await this.record();
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
    }
  }

  private async record(): Promise<SnapshotDocument> {
    const listed = await this.listRoots();
    const available = listed.map((r) => r.name);
    const wanted = this.options.roots ?? available.filter((r) => !SKIPPED_BY_DEFAULT.has(r));
    const unknown = wanted.filter((r) => !available.includes(r));
    if (unknown.length > 0)
      throw new ToolError(`unknown root ${unknown.join(', ')}: the HUD serves ${available.join(', ')}`, { code: 'INVALID_ARGUMENT' });
    const roots: Record<string, SnapshotValue> = {};
    for (const r of listed) {
      const job: Job = {
        path: r.name,
        type: r.type ?? 'Object',
        text: typeof r.value === 'string' ? r.value : undefined,
        depth: this.depth,
        place: (v) => v !== undefined && (roots[r.name] = v),
        ancestors: [],
        collection: typeof r.count === 'number',
        count: r.count,
      };
      this.identities.addRoot(job, wanted.includes(r.name) ? 'recorded' : SKIPPED_BY_DEFAULT.has(r.name) ? 'skipped' : 'elsewhere');
      if (wanted.includes(r.name)) this.queue.push(job);
    }
    await this.drain();
    this.identities.redirect(roots);
    for (const glob of this.options.types ?? []) if (!this.budget.spent()) await this.recordMatchingTypes(glob);
    const doc = this.document(wanted, roots);
    // The HUD's own forms (past the depth limit, collections, enums, structs), from a few evals of what was recorded.
    if (!this.budget.spent() && this.options.learn !== false) doc.hud = { writes: await learnWrites(this.remote, doc, this.calls.signal) };
    this.options.progress?.({ progress: 100, total: 100, message: `done: ${this.budget.calls} calls, ${this.budget.objects} objects` });
    return doc;
  }

  private document(wanted: string[], roots: Record<string, SnapshotValue>): SnapshotDocument {
    return {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      recordedAt: new Date().toISOString(),
      source: {
        recorder: 'mcphost exile:snapshot',
        roots: wanted,
        depth: this.depth,
        ...this.budget.header(),
        complete: this.graph.cut === undefined,
        ...(this.graph.cut ? { cut: this.graph.cut } : {}),
        ...(this.graph.depthLimited > 0 ? { depthLimited: this.graph.depthLimited } : {}),
        ...this.options.source,
      },
      roots,
      types: Object.fromEntries([...this.types.recorded].sort(([a], [b]) => a.localeCompare(b))),
    };
  }

  /** One explore call; at most `concurrency` are under way, whoever makes them. */
  private async explore(target: string, depth: number): Promise<unknown> {
    if (this.calling >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.calling++;
    try {
      if (this.calls.signal.aborted) throw this.abortReason();
      this.budget.calls++;
      const args = { target, depth, includePrivate: true, limit: this.items };
      return unwrapResult(await this.remote.explore(args, { signal: this.calls.signal }));
    } finally {
      this.calling--;
      this.waiting.shift()?.();
    }
  }

  private abortReason(): unknown {
    const reason = this.calls.signal.reason;
    if (reason === TIME_UP) return TIME_UP;
    return reason instanceof Error ? reason : new ToolError('recording cancelled', { code: 'CANCELLED' });
  }

  private async listRoots(): Promise<Array<ExploreNode & { name: string }>> {
    const answer = (await this.explore('', 0)) as { members?: ExploreNode[]; roots?: Array<string | ExploreNode> } | string[];
    const list = Array.isArray(answer) ? answer : (answer.members ?? answer.roots ?? []);
    const nodes = list
      .map((r) => (typeof r === 'string' ? { name: r } : r))
      .filter((r): r is ExploreNode & { name: string } => r.available !== false && typeof r.name === 'string' && r.name !== '');
    return nodes.length > 0 ? nodes : HUD_ROOTS.map((name) => ({ name }));
  }

  /** Runs the queue: up to `concurrency` explores in flight, outcomes built in queue order. */
  private drain(): Promise<void> {
    return new Promise((resolve, reject) => {
      let failed = false;
      const fail = (error: unknown) => {
        failed = true;
        this.calls.abort(error);
        reject(error);
      };
      const pump = () => {
        if (failed) return;
        while (this.queue.length > 0 && this.inFlight < this.concurrency) {
          const reason = this.budget.spent();
          if (reason) {
            this.cutQueue(reason);
            break;
          }
          this.dispatch(this.queue.shift()!, () => {
            try {
              this.buildReady();
            } catch (error) {
              return fail(error);
            }
            pump();
          });
        }
        if (this.inFlight === 0 && this.queue.length === 0) resolve();
      };
      pump();
    });
  }

  private dispatch(job: Job, done: () => void): void {
    const seq = this.dispatched++;
    this.inFlight++;
    this.explore(job.path, job.collection && (job.count ?? 0) <= EXPAND_ITEMS_UP_TO ? 2 : 1)
      .then(async (answer) => {
        const node = answer as ExploreNode;
        await this.types.ensure(typesIn(node));
        this.outcomes.set(seq, { job, node });
      })
      .catch((error: unknown) => this.outcomes.set(seq, { job, error }))
      .finally(() => {
        this.inFlight--;
        done();
      });
  }

  private buildReady(): void {
    for (let outcome = this.outcomes.get(this.built); outcome; outcome = this.outcomes.get(this.built)) {
      this.outcomes.delete(this.built++);
      const { job, node, error } = outcome;
      this.lastPath = job.path;
      if (node) job.place(this.graph.build(node, job));
      else this.failed(job, error);
      this.options.progress?.({
        progress: this.budget.percent(),
        total: 100,
        message: `${this.budget.calls} calls, ${this.budget.objects} objects · ${this.lastPath}`,
      });
    }
  }

  private failed(job: Job, error: unknown): void {
    if (error === TIME_UP || (this.calls.signal.aborted && this.calls.signal.reason === TIME_UP))
      return this.graph.cutJob(job, 'maxSeconds');
    if ((error as ToolError)?.code === 'UNAVAILABLE' || this.options.signal?.aborted) throw error;
    this.options.logger?.warn(`skipped ${job.path}: ${(error as Error).message}`);
    job.place(job.id !== undefined ? this.graph.stub(job) : undefined);
  }

  private cutQueue(reason: CutReason): void {
    for (const job of this.queue.splice(0)) this.graph.cutJob(job, reason);
  }

  private async recordMatchingTypes(glob: string): Promise<void> {
    let answer: { types?: Array<{ type?: string }> };
    try {
      answer = (await this.explore(`search:${glob}`, 0)) as typeof answer;
    } catch (error) {
      if (error === TIME_UP) return;
      if ((error as ToolError)?.code === 'UNAVAILABLE' || this.options.signal?.aborted) throw error;
      this.options.logger?.warn(`skipped --types ${glob}: ${(error as Error).message}`);
      return;
    }
    await this.types.ensure((answer.types ?? []).map((t) => t.type));
  }
}

/** The type names an answer mentions: itself, its members and items, and theirs (collections come two levels deep). */
function typesIn(node: ExploreNode): string[] {
  const out: string[] = [];
  const walk = (n: ExploreNode, level: number) => {
    if (n.type) out.push(n.type);
    if (level === 0) return;
    for (const m of n.members ?? []) walk(m, level - 1);
    for (const m of n.items ?? []) walk(m, level - 1);
  };
  walk(node, 2);
  return out;
}
