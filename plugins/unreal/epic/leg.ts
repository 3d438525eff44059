// Epic's own MCP server in the Unreal Editor (UE 5.8+, plugin ModelContextProtocol), mirrored
// through the kit's mirrored backend. With tool search on (Epic's default) it lists three
// meta-tools over many toolsets: mcphost publishes each toolset's tools as `unreal_<Class>_<tool>`
// (epicTools: flat) or the three meta-tools themselves (epicTools: meta). With tool search off it
// lists every tool natively, and those are renamed the same way. Every call goes through the
// editor's queue, and answers known to mean failure are marked as such (failures.ts).
import { UnavailableError, type BackendContext, type CallContext, type ToolDef } from '../../../src/backend/index.js';
import { createMirroredBackend, healthWaitMs } from '../../../src/kit/upstream.js';
import { EditorQueue } from '../editor-queue.js';
import { EpicCatalog } from './catalog.js';
import { toolsetCache } from './cache.js';
import { failureOf, honest } from './failures.js';
import { flatTools } from './flat.js';
import { assignToolsetNames, flatName } from './names.js';

export interface EpicSettings {
  epicUrl: string;
  epicTools: 'flat' | 'meta';
  epicToolsets: string[];
  readyTimeoutMs: number;
  settleMs: number;
}

const META = ['list_toolsets', 'describe_toolset', 'call_tool'];
/** call_tool's arguments as far as the queue's label reads them (they reach the editor unchecked). */
const named = (args: unknown) => (args ?? {}) as { toolset_name?: unknown; tool_name?: unknown };
/** A call runs until the editor answers; the caller's own deadline is enforced by the queue. */
const BACKSTOP_MS = 24 * 60 * 60 * 1000;
const PROGRESS_EVERY_MS = 2_000;
/** After the list settled while serving, it is read again now and then (a toolset may register late, or after RefreshTools). */
const RECHECK_FIRST_MS = 30_000;
const RECHECK_MAX_MS = 5 * 60_000;

function epicDown(url: string, reason: string): string {
  if (reason === 'mcphost is shutting down') return reason;
  const http = / answered (HTTP \d+.*)$/s.exec(reason);
  if (http) return `Epic's Unreal MCP at ${url} answered ${http[1]}`;
  if (/did not answer initialize/.test(reason))
    return `Epic's Unreal MCP at ${url} did not answer initialize: is the editor busy (a modal dialog, a compile)?`;
  return `Epic's Unreal MCP not running at ${url}: start the editor (UE 5.8+, plugins ModelContextProtocol and AllToolsets) and run ModelContextProtocol.StartServer in its console (${reason.replace(/ at https?:\/\/\S+/, '').replace(' (is it running?)', '')})`;
}

export function epicLeg() {
  const queue = new EditorQueue();
  const stopping = new AbortController();
  let catalog: EpicCatalog | undefined;
  let seenRestarts = -1;
  let lastProgress = 0;
  let recheck: NodeJS.Timeout | undefined;
  const nativeNames = new Map<string, string>();
  const settings = (ctx: BackendContext<EpicSettings>) => ctx.config;
  const label = (ctx: BackendContext<EpicSettings>) => `Epic's Unreal MCP at ${settings(ctx).epicUrl}`;

  const up = createMirroredBackend<EpicSettings>({
    name: 'unreal',
    client: (ctx) => ({
      target: { kind: 'http', url: settings(ctx).epicUrl },
      label: label(ctx),
      sseFallback: false,
      connectTimeoutMs: 10_000,
      describeDown: (reason) => epicDown(settings(ctx).epicUrl, reason),
    }),
  });

  /** One call of a meta-tool (or a native tool), in the editor's queue. */
  function meta(ctx: BackendContext<EpicSettings>, name: string, args: Record<string, unknown>, signal: AbortSignal, call?: CallContext) {
    const { client } = up.ensure(ctx);
    const what = name === 'call_tool' ? `call_tool ${String(args.toolset_name)}.${String(args.tool_name)}` : name;
    return queue.run(
      what,
      signal,
      () =>
        client.request((c) =>
          c.callTool(
            { name, arguments: args },
            {
              timeout: BACKSTOP_MS,
              signal: stopping.signal,
              ...(call && { onprogress: (p) => call.progress({ progress: p.progress, total: p.total, message: p.message }) }),
            },
          ),
        ) as Promise<{ content?: unknown; isError?: boolean }>,
      call?.progress,
    );
  }

  function catalogFor(ctx: BackendContext<EpicSettings>): EpicCatalog {
    if (catalog) return catalog;
    const cache = toolsetCache(ctx.cacheDir, settings(ctx).epicUrl, ctx.logger);
    catalog = new EpicCatalog({
      label: label(ctx),
      logger: ctx.logger,
      settleMs: settings(ctx).settleMs,
      meta: (name, args, signal) => meta(ctx, name, args, signal),
      onChange: () => ctx.notifyListChanged('tools'),
      remembered: cache.load(),
      remember: (value) => cache.save(value),
      reuseDescriptions: !ctx.serving,
    });
    return catalog;
  }

  /** Lists and describes until the editor's toolsets stop changing: awaited in a one-shot command, in the background while serving. */
  async function ready(ctx: BackendContext<EpicSettings>, cat: EpicCatalog): Promise<void> {
    const { client } = up.ensure(ctx);
    const restarts = client.status().restarts;
    if (restarts !== seenRestarts) {
      seenRestarts = restarts;
      cat.reset();
    }
    const run = cat.settle({
      deadline: Date.now() + settings(ctx).readyTimeoutMs,
      signal: ctx.serving ? stopping.signal : ctx.signal,
      progress: (message) => {
        if (Date.now() - lastProgress < PROGRESS_EVERY_MS) return;
        lastProgress = Date.now();
        ctx.logger.info(message);
      },
    });
    if (!ctx.serving) {
      await run;
      return;
    }
    run.then(
      () => watch(ctx, cat, RECHECK_FIRST_MS),
      (error) => ctx.logger.debug(`${label(ctx)}: listing toolsets: ${(error as Error).message}`),
    );
  }

  /** While serving, reads the list again at growing intervals: what registers late is published too. */
  function watch(ctx: BackendContext<EpicSettings>, cat: EpicCatalog, delayMs: number): void {
    if (recheck || stopping.signal.aborted) return;
    recheck = setTimeout(() => {
      recheck = undefined;
      if (up.client?.state !== 'connected') return;
      cat.refreshOnce(stopping.signal).then(
        () => watch(ctx, cat, Math.min(delayMs * 2, RECHECK_MAX_MS)),
        () => undefined,
      );
    }, delayMs).unref();
  }

  /** A tool of the editor's list, queued, with known failures marked. */
  function queued(ctx: BackendContext<EpicSettings>, def: ToolDef, name = def.name): ToolDef {
    return {
      ...def,
      name,
      handler: async (args, call) => {
        const result = await queue.run(
          def.name === 'call_tool' ? `call_tool ${String(named(args).toolset_name)}.${String(named(args).tool_name)}` : def.name,
          call.signal,
          () => Promise.resolve(def.handler(args, { ...call, signal: stopping.signal })),
          call.progress,
        );
        if (failureOf(result as object)?.id === 'unknown-toolset') catalog?.reset();
        return honest(result as { content?: unknown });
      },
    };
  }

  function flat(ctx: BackendContext<EpicSettings>, cat: EpicCatalog): ToolDef[] {
    return flatTools(cat, settings(ctx).epicToolsets, async (call, args) => {
      const result = await meta(ctx, 'call_tool', args, call.signal, call);
      if (failureOf(result)?.id === 'unknown-toolset') {
        // The toolset went away (a plugin was unloaded, RefreshTools ran): list them again.
        cat.reset();
        void ready(ctx, cat).catch(() => undefined);
      }
      return honest(result);
    });
  }

  return {
    up,
    queue,
    get catalog() {
      return catalog;
    },
    async tools(ctx: BackendContext<EpicSettings>): Promise<ToolDef[]> {
      const upstream = await up.tools(ctx);
      const names = upstream.map((t) => t.name);
      const search = META.every((n) => names.includes(n));
      const cat = catalogFor(ctx);
      if (upstream.length > 0 && !search) {
        // Tool search off (bEnableToolSearch=False): the editor lists its tools natively, as `<Toolset>.<tool>`.
        const toolsets = names.filter((n) => n.includes('.')).map((n) => n.slice(0, n.lastIndexOf('.')));
        assignToolsetNames(toolsets, nativeNames);
        return upstream.map((d) => {
          const dot = d.name.lastIndexOf('.');
          return queued(ctx, d, dot < 0 ? d.name : flatName(nativeNames.get(d.name.slice(0, dot))!, d.name.slice(0, dot), d.name));
        });
      }
      if (search && settings(ctx).epicTools === 'meta') return upstream.filter((d) => META.includes(d.name)).map((d) => queued(ctx, d));
      if (search && up.client?.state === 'connected') await ready(ctx, cat);
      return settings(ctx).epicTools === 'flat' ? flat(ctx, cat) : [];
    },
    start: (ctx: BackendContext<EpicSettings>) => up.start(ctx),
    async stop() {
      clearTimeout(recheck);
      stopping.abort(new UnavailableError('mcphost is shutting down'));
      await up.stop();
    },
    /** Which server answered, its protocol version, and what it has registered so far. */
    async report(ctx: BackendContext<EpicSettings>) {
      const { tools, ...status } = await up.check(ctx);
      const detail: Record<string, unknown> = {
        url: settings(ctx).epicUrl,
        ...status,
        ...(tools !== undefined && { upstreamTools: tools }),
      };
      const cat = catalogFor(ctx);
      const upstream = status.state === 'connected' ? await up.tools(ctx).catch(() => []) : [];
      const search = META.every((n) => upstream.some((t) => t.name === n));
      let registered = '';
      if (status.state === 'connected' && status.answered && search) {
        if (!ctx.serving) {
          const wait = healthWaitMs(ctx);
          await cat.refreshOnce(AbortSignal.timeout(wait), Date.now() + wait).catch((error) => {
            detail.listError = (error as Error)?.message ?? String(error);
          });
        }
        const described = cat.listed.filter((t) => cat.described.has(t.name)).length;
        registered = `${cat.listed.length} toolsets, ${cat.toolCount()} tools registered so far${described < cat.listed.length ? ` (${described} described)` : ''}`;
        Object.assign(detail, { toolSearch: true, toolsets: cat.listed.length, tools: cat.toolCount(), settled: cat.settled });
      } else if (status.state === 'connected' && status.answered) {
        registered = `tool search off, ${upstream.length} tools registered so far`;
        Object.assign(detail, { toolSearch: false, tools: upstream.length });
      }
      if (queue.running) detail.running = queue.running.what;
      return { status, detail, registered };
    },
  };
}
