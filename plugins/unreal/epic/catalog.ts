// What Epic's Unreal MCP has registered, kept up to date through its own meta-tools. Its toolsets
// register one by one after the server starts and nothing says when they are done (the forum report
// saw "1 toolsets discoverable" grow to 52), so the catalog lists them until the list stops
// changing for `settleMs` (bounded by a deadline), describes each new toolset once, and tells the
// host each time the tools it can publish change. Every list and describe is a tool call on the
// editor's game thread, made through the editor's queue like a client's calls.
import type { Logger } from '../../../src/backend/index.js';
import { parseDescription, parseToolsetList, textOf, type DescribedToolset, type ListedToolset } from './toolsets.js';
import { assignToolsetNames } from './names.js';

type MetaCall = (name: string, args: Record<string, unknown>, signal: AbortSignal) => Promise<{ content?: unknown; isError?: boolean }>;

export interface CatalogOptions {
  label: string;
  meta: MetaCall;
  logger: Logger;
  settleMs: number;
  /** The tools the catalog can publish changed. */
  onChange(): void;
  /** The list and descriptions seen when the list last settled (a previous run's), and where to keep them. */
  remembered?: { listed: ListedToolset[]; described: DescribedToolset[] };
  remember?(value: { listed: ListedToolset[]; described: DescribedToolset[] }): void;
  /**
   * Take a remembered description as it is when list_toolsets still gives the toolset the same
   * description (a one-shot command); otherwise every toolset is described again on each connection.
   */
  reuseDescriptions?: boolean;
}

export interface SettleOptions {
  deadline: number;
  signal: AbortSignal;
  progress?(message: string): void;
}

const same = (a: ListedToolset[], b: ListedToolset[]) =>
  a.length === b.length && a.every((t, i) => t.name === b[i].name && t.description === b[i].description);

export class EpicCatalog {
  listed: ListedToolset[] = [];
  readonly described = new Map<string, DescribedToolset>();
  readonly shortNames = new Map<string, string>();
  /** The list has not changed for settleMs since the last (re)connect. */
  settled = false;
  private settling?: Promise<boolean>;
  /** Described, or found not to be a toolset, since the last (re)connect. */
  private readonly fresh = new Set<string>();
  private readonly skipped = new Set<string>();

  constructor(private readonly options: CatalogOptions) {
    // What settled last time is published until the editor answers (an editor that is closed keeps its tools listed).
    const seed = options.remembered;
    if (seed) {
      this.listed = seed.listed;
      for (const d of seed.described) this.described.set(d.name, d);
      assignToolsetNames(
        this.listed.map((t) => t.name),
        this.shortNames,
      );
    }
  }

  toolCount(): number {
    let n = 0;
    for (const t of this.listed) n += this.described.get(t.name)?.tools.length ?? 0;
    return n;
  }

  /** The editor restarted (or forgot a toolset): its toolsets are listed and described again. */
  reset(): void {
    this.settled = false;
    this.fresh.clear();
    this.skipped.clear();
  }

  /**
   * Lists and describes until the list has not changed for settleMs, or the deadline passes (then
   * what is registered so far stands). Concurrent callers share one run. Resolves true when settled.
   */
  settle(options: SettleOptions): Promise<boolean> {
    if (this.settled) return Promise.resolve(true);
    this.settling ??= this.run(options).finally(() => (this.settling = undefined));
    return this.settling;
  }

  private async run({ deadline, signal, progress }: SettleOptions): Promise<boolean> {
    const { settleMs } = this.options;
    const poll = Math.max(50, Math.min(1_000, Math.round(settleMs / 4)));
    const started = Date.now();
    let stableSince = Date.now();
    let first = true;
    for (;;) {
      const before = this.listed;
      await this.refreshOnce(signal, deadline);
      // A first list equal to the one that settled last time is taken as whole: the editor has been up a while.
      const remembered = this.options.remembered?.listed;
      if (first && remembered && same(this.listed, remembered) && this.allDescribed()) break;
      if (!first && !same(before, this.listed)) stableSince = Date.now();
      first = false;
      if (Date.now() - stableSince >= settleMs && this.allDescribed()) break;
      if (Date.now() >= deadline) {
        this.options.logger.warn(
          `${this.options.label}: toolsets were still registering after ${Math.round((Date.now() - started) / 1000)} s; publishing the ${this.listed.length} registered so far`,
        );
        return false;
      }
      progress?.(
        `${this.options.label}: ${this.listed.length} toolsets, ${this.toolCount()} tools registered so far; waiting until the list stops changing`,
      );
      await new Promise((resolve) => setTimeout(resolve, Math.min(poll, Math.max(0, deadline - Date.now()))));
      if (signal.aborted) throw signal.reason;
    }
    this.settled = true;
    this.options.remember?.({ listed: this.listed, described: [...this.described.values()] });
    return true;
  }

  private allDescribed(): boolean {
    return this.listed.every((t) => this.fresh.has(t.name) || this.skipped.has(t.name));
  }

  /** One list_toolsets, then describe_toolset for each toolset not described yet (until the deadline). */
  async refreshOnce(signal: AbortSignal, deadline = Infinity): Promise<void> {
    const listing = await this.options.meta('list_toolsets', {}, signal);
    if (listing.isError) throw new Error(`list_toolsets answered an error: ${textOf(listing).slice(0, 300)}`);
    const listed = parseToolsetList(textOf(listing));
    let changed = !same(listed, this.listed);
    this.listed = listed;
    for (const name of this.described.keys()) if (!listed.some((t) => t.name === name)) this.described.delete(name);
    assignToolsetNames(
      listed.map((t) => t.name),
      this.shortNames,
    );
    for (const t of listed) {
      if (this.fresh.has(t.name) || this.skipped.has(t.name)) continue;
      if (Date.now() >= deadline) break;
      const seen = this.options.remembered;
      const old = seen?.described.find((d) => d.name === t.name);
      const reuse = this.options.reuseDescriptions && old && seen?.listed.find((l) => l.name === t.name)?.description === t.description;
      const described = reuse ? old : parseDescription(await this.options.meta('describe_toolset', { toolset_name: t.name }, signal));
      if (!described) {
        this.skipped.add(t.name);
        changed = this.described.delete(t.name) || changed;
        this.options.logger.debug(`${this.options.label}: ${t.name} is not a toolset describe_toolset knows; skipped`);
        continue;
      }
      const next = { ...described, name: t.name };
      if (JSON.stringify(this.described.get(t.name)) !== JSON.stringify(next)) changed = true;
      this.described.set(t.name, next);
      this.fresh.add(t.name);
    }
    if (changed) this.options.onChange();
  }
}
