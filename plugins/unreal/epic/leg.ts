// Epic's own MCP server in the Unreal Editor (UE 5.8+, plugin ModelContextProtocol), mirrored
// through the kit's mirrored backend. With tool search on (Epic's default) it lists three
// meta-tools over many toolsets: mcphost publishes each toolset's tools as `unreal_<Class>_<tool>`
// (epicTools: flat) or the three meta-tools themselves (epicTools: meta). With tool search off it
// lists every tool natively, and those are renamed the same way. Every call goes through the
// editor's queue, and answers known to mean failure are marked as such (failures.ts).
import { UnavailableError, type BackendContext, type CallContext, type ToolDef } from '../../../src/backend/index.js';
import { createMirroredBackend, healthWaitMs } from '../../../src/kit/upstream.js';
import { consent, mayChange, type ConfirmSetting } from '../consent.js';
import { EditorQueue } from '../editor-queue.js';
import { EpicCatalog } from './catalog.js';
import { toolsetCache } from './cache.js';
import { failureOf, honest } from './failures.js';
import { flatTools } from './flat.js';
import { assignToolsetNames, flatName } from './names.js';
import { isSkillToolset, skillPrompts } from './skills.js';

export interface EpicSettings {
  epicUrl: string;
  epicTools: 'flat' | 'meta';
  epicToolsets: string[];
  readyTimeoutMs: number;
  settleMs: number;
  confirm: ConfirmSetting;
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
  let skillsListed = false;
  /** The last wait for the list to settle ended at its deadline. */
  let gaveUp = false;
  let waitingToConnect = false;
  let skills: ReturnType<typeof skillPrompts> | undefined;
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
      onChange: () => {
        ctx.notifyListChanged('tools');
        // The skills toolset registers first ([forum]); its prompts are listed once it is there.
        const hasSkills = catalog?.listed.some((t) => isSkillToolset(t.name)) ?? false;
        if (hasSkills !== skillsListed) {
          skillsListed = hasSkills;
          ctx.notifyListChanged('prompts');
        }
      },
      remembered: cache.load(),
      remember: (value) => cache.save(value),
      reuseDescriptions: !ctx.serving,
    });
    return catalog;
  }

  function skillsFor(ctx: BackendContext<EpicSettings>) {
    skills ??= skillPrompts({
      catalog: () => catalogFor(ctx),
      callTool: (toolset, tool, args, signal) =>
        meta(ctx, 'call_tool', { toolset_name: toolset, tool_name: tool, arguments: args }, signal),
      logger: ctx.logger,
      label: label(ctx),
    });
    return skills;
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
      gaveUp = !(await run);
      return;
    }
    run.then(
      (settled) => {
        gaveUp = !settled;
        watch(ctx, cat, RECHECK_FIRST_MS);
      },
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
        // call_tool names the tool it runs; a native tool is its own name.
        const viaCallTool = def.name === 'call_tool';
        const tool = viaCallTool ? String(named(args).tool_name ?? '') : def.name;
        const label = viaCallTool ? `${String(named(args).toolset_name)}.${tool}` : def.name;
        const toolArgs = (viaCallTool ? (args as { arguments?: unknown })?.arguments : args) ?? {};
        if (def.name !== 'list_toolsets' && def.name !== 'describe_toolset')
          await consent(call, settings(ctx).confirm, { label, name: tool }, toolArgs as Record<string, unknown>);
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
      const label = `${cat.shortNames.get(args.toolset_name) ?? args.toolset_name}.${args.tool_name}`;
      // Asked before the call joins the editor's queue: a question left open holds no one else's call.
      await consent(call, settings(ctx).confirm, { label, name: args.tool_name }, args.arguments);
      const result = await meta(ctx, 'call_tool', args, call.signal, call);
      if (isSkillToolset(args.toolset_name) && mayChange(args.tool_name)) {
        // CreateSkill, UpdateSkill: the prompts follow.
        skills?.forget();
        ctx.notifyListChanged('prompts');
      }
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
      else if (search && ctx.serving && !waitingToConnect) {
        // Listed from what was remembered before the editor answered: settle once it does, or the
        // remembered list would stand unchecked (and never count as finished) until something lists again.
        waitingToConnect = true;
        void up
          .ensure(ctx)
          .client.connect()
          .then(() => ready(ctx, cat))
          .catch(() => undefined)
          .finally(() => (waitingToConnect = false));
      }
      return settings(ctx).epicTools === 'flat' ? flat(ctx, cat) : [];
    },
    /** The editor's own prompts, and each agent skill of the project as a prompt (skills.ts). */
    async prompts(ctx: BackendContext<EpicSettings>) {
      const own = await up.prompts(ctx);
      if (up.client?.state !== 'connected') return own;
      return [...own, ...(await skillsFor(ctx).prompts(ctx.signal))];
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
          // Finished means unchanged for settleMs: a one-shot doctor watches the list that long (less when the cache matches).
          const wait = Math.min(settings(ctx).readyTimeoutMs, settings(ctx).settleMs + healthWaitMs(ctx));
          gaveUp = !(await cat.settle({ deadline: Date.now() + wait, signal: AbortSignal.timeout(wait + 1_000) }).catch((error) => {
            detail.listError = (error as Error)?.message ?? String(error);
            return true;
          }));
        }
        const described = cat.listed.filter((t) => cat.described.has(t.name)).length;
        const counts = `${cat.listed.length} toolsets, ${cat.toolCount()} tools`;
        const partly = described < cat.listed.length ? ` (${described} described)` : '';
        const registration = cat.settled ? 'finished' : gaveUp ? 'unsettled' : 'registering';
        registered =
          registration === 'finished'
            ? `${counts} registered${partly} (registration finished)`
            : registration === 'unsettled'
              ? `${counts} registered so far${partly} (still changing when the wait ended)`
              : `${counts} registered so far${partly} (still registering)`;
        Object.assign(detail, {
          toolSearch: true,
          toolsets: cat.listed.length,
          tools: cat.toolCount(),
          settled: cat.settled,
          registration,
        });
      } else if (status.state === 'connected' && status.answered) {
        registered = `tool search off, ${upstream.length} tools listed (the editor announces the ones it adds)`;
        Object.assign(detail, { toolSearch: false, tools: upstream.length });
      }
      if (queue.running) detail.running = queue.running.what;
      return { status, detail, registered };
    },
  };
}
