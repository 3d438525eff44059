// unreal: the Unreal Editor's MCP servers behind one backend — Epic's own Unreal MCP (UE 5.8+,
// plugin ModelContextProtocol, http://127.0.0.1:8000/mcp) and the UnrealMCPServer plugin (port
// 30069). `mode` picks which: auto uses whichever answers, and both when both do. Each editor server
// is a mirrored MCP backend from the kit (the one mounted `servers` use too); its calls are queued
// one at a time, and the editor's tools stay listed while it is closed and answer what to start.
import * as z from 'zod';
import { UnavailableError, defineBackend, type Backend, type BackendContext, type HealthReport } from '../../src/backend/index.js';
import { epicLeg } from './epic/leg.js';
import { umsLeg } from './ums.js';

const MODES = ['auto', 'epic', 'unrealmcpserver', 'both'] as const;

const configSchema = z.object({
  url: z
    .url({ protocol: /^https?$/ })
    .default('http://127.0.0.1:30069')
    .describe('address of the editor’s UnrealMCPServer plugin (its MCP endpoint is <url>/mcp)'),
  epicUrl: z
    .url({ protocol: /^https?$/ })
    .default('http://127.0.0.1:8000/mcp')
    .describe('MCP endpoint of Epic’s Unreal MCP in the editor (UE 5.8+: ServerPortNumber and ServerUrlPath change it)'),
  mode: z
    .enum(MODES)
    .default('auto')
    .describe('which editor server to use: auto (whichever answers, both when both do), epic, unrealmcpserver, both'),
  epicTools: z
    .enum(['flat', 'meta'])
    .default('flat')
    .describe('publish Epic’s toolsets’ tools as unreal_<Toolset>_<tool> (flat) or Epic’s three meta-tools as they are (meta)'),
  epicToolsets: z.array(z.string()).default(['*']).describe('flat: only the toolsets matching these names or * globs (full or class name)'),
  confirm: z
    .enum(['ask', 'never'])
    .default('ask')
    .describe('ask: before a tool that may change the editor, ask the user (when the client supports elicitation); never: do not ask'),
  readyTimeoutMs: z.number().int().positive().default(60_000).describe('longest wait for Epic’s toolsets to finish registering'),
  settleMs: z
    .number()
    .int()
    .positive()
    .default(2_000)
    .describe('Epic’s toolsets count as registered once their list is unchanged this long'),
});

type Config = z.output<typeof configSchema>;

export default function unreal(): Backend<Config> {
  const epic = epicLeg();
  const ums = umsLeg();
  const legs = (ctx: BackendContext<Config>) => {
    const { mode } = ctx.config;
    return [...(mode === 'unrealmcpserver' ? [] : [{ name: 'epic', leg: epic }]), ...(mode === 'epic' ? [] : [{ name: 'ums', leg: ums }])];
  };

  /** What every leg lists; a leg that is down is left out unless every leg is (then its error is the answer). */
  async function gather<T>(ctx: BackendContext<Config>, list: (leg: typeof epic | typeof ums) => Promise<T[]>): Promise<T[]> {
    const results = await Promise.allSettled(legs(ctx).map(({ leg }) => list(leg)));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length === results.length && failed.length > 0)
      throw combined(
        ctx,
        failed.map((f) => f.reason),
      );
    return results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  }

  function combined(ctx: BackendContext<Config>, errors: unknown[]): unknown {
    if (errors.length === 1) return errors[0];
    const messages = errors.map((e) => (e as Error)?.message ?? String(e));
    if (!errors.every((e) => (e as { code?: unknown })?.code === 'UNAVAILABLE')) return errors[0];
    return new UnavailableError(`Unreal Editor not reachable: ${messages.join('; ')}`, { cause: errors[0] });
  }

  return defineBackend<Config>({
    name: 'unreal',
    version: '0.2.0',
    description: 'Unreal Editor: Epic’s Unreal MCP (UE 5.8+) and the UnrealMCPServer plugin, their tools and resources',
    configSchema,
    env: {
      url: 'UNREAL_MCP_URL',
      epicUrl: 'UNREAL_EPIC_MCP_URL',
      mode: 'UNREAL_MODE',
      epicTools: 'UNREAL_EPIC_TOOLS',
      confirm: 'UNREAL_CONFIRM',
    },
    async tools(ctx) {
      const seen = new Set<string>();
      return (await gather(ctx, (leg) => leg.tools(ctx))).filter((t) => {
        if (seen.has(t.name)) {
          ctx.logger.warn(`unreal: ${t.name} is listed by both editor servers; UnrealMCPServer's is published`);
          return false;
        }
        seen.add(t.name);
        return true;
      });
    },
    prompts: (ctx) => gather(ctx, (leg) => (leg === epic ? epic.prompts(ctx) : leg.up.prompts(ctx))),
    resources: (ctx) => gather(ctx, (leg) => leg.up.resources(ctx)),
    resourceTemplates: (ctx) => gather(ctx, (leg) => leg.up.resourceTemplates(ctx)),
    async start(ctx) {
      // A call finds the editor here first: "not running at …, start it" rather than a failed request.
      // With two editor servers a tool names its own when its server is down, so only one is awaited.
      const results = await Promise.allSettled(legs(ctx).map(({ leg }) => leg.start(ctx)));
      if (results.length === 1 && results[0].status === 'rejected') throw results[0].reason;
    },
    async stop() {
      await Promise.allSettled([epic.stop(), ums.stop()]);
    },
    async health(ctx): Promise<HealthReport> {
      const { mode } = ctx.config;
      const reports = await Promise.all(
        legs(ctx).map(async ({ name, leg }) => ({ name, report: leg === epic ? await epicHealth(ctx) : await ums.health(ctx) })),
      );
      const up = reports.filter((r) => r.report.ok);
      const ok = mode === 'both' ? up.length === reports.length : up.length > 0;
      // auto: say which server answered; a server that is not running is no fault while another one serves.
      const shown = mode === 'auto' && up.length > 0 ? up : reports;
      return {
        ok,
        message: shown.map((r) => r.report.message).join('; '),
        detail: { mode, ...Object.fromEntries(reports.map((r) => [r.name, { ok: r.report.ok, ...r.report.detail }])) },
      };
    },
  });

  async function epicHealth(ctx: BackendContext<Config>): Promise<HealthReport> {
    const url = ctx.config.epicUrl;
    const { status, detail, registered } = await epic.report(ctx);
    if (status.state === 'connected' && status.answered) {
      const name = status.server?.name ? `${status.server.name} ${status.server.version}`.trim() : "Epic's Unreal MCP";
      return { ok: true, message: `${name} is up at ${url} (protocol ${status.protocolVersion ?? '?'}): ${registered}`, detail };
    }
    if (status.state === 'connected' || status.state === 'connecting')
      return {
        ok: false,
        message: `Epic's Unreal MCP at ${url} did not answer in time: is the editor busy (a modal dialog, a compile)?`,
        detail,
      };
    return {
      ok: false,
      message: epic.up.client?.unavailable(status.lastError ?? status.state).message ?? `Epic's Unreal MCP at ${url} is down`,
      detail,
    };
  }
}
