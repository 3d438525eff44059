// The UnrealMCPServer editor plugin (HTTP on port 30069, request/response only: protocol 2024-11-05
// in the released plugin, 2025-03-26 in the seed), mirrored through the kit's mirrored backend:
// its tools as `unreal_<tool>`, its resources and templates with their own URIs, read through /mcp
// or, for the seed's older builds, its /-/ endpoints (editor.ts). Tool calls go through the editor's
// queue like Epic's.
import type { BackendContext, HealthReport, ToolDef } from '../../src/backend/index.js';
import { createMirroredBackend, healthWaitMs } from '../../src/kit/upstream.js';
import { consent, type ConfirmSetting } from './consent.js';
import { EditorQueue } from './editor-queue.js';
import {
  answered,
  busy,
  checkHealth,
  describeDown,
  editorBase,
  listResourcesFallback,
  notRunning,
  readResourceFallback,
  tidyContents,
} from './editor.js';

/** -32601: the editor's /mcp does not implement the method (the seed's older builds serve resources on /-/ only). */
const notOffered = (error: unknown) => (error as { code?: unknown })?.code === -32601;

/** The part of unreal's config this leg reads. */
type UmsSettings = { url: string; confirm: ConfirmSetting };

const baseOf = (ctx: BackendContext<UmsSettings>) => editorBase(ctx.config.url);

export function umsLeg() {
  const queue = new EditorQueue();
  const stopping = new AbortController();
  const up = createMirroredBackend<UmsSettings>({
    name: 'unreal',
    client: (ctx) => ({
      label: `Unreal Editor at ${baseOf(ctx)}`,
      target: { kind: 'http', url: `${baseOf(ctx)}/mcp` },
      sseFallback: false,
      connectTimeoutMs: 10_000,
      describeDown: (reason) => describeDown(baseOf(ctx), reason),
    }),
    mirror: (client, ctx) => {
      const base = baseOf(ctx);
      const viaMcp = async () => Boolean((await client.connect()).getServerCapabilities()?.resources);
      return {
        async listResources() {
          if (await viaMcp()) {
            try {
              return (await client.request((c) => c.listResources(undefined, client.listOptions()))).resources;
            } catch (error) {
              if (!notOffered(error)) throw error;
            }
          }
          return listResourcesFallback(base);
        },
        async readResource(uri, signal) {
          if (await viaMcp()) {
            try {
              return tidyContents(await client.request((c) => c.readResource({ uri }, { signal }), signal));
            } catch (error) {
              if (!notOffered(error)) throw error;
            }
          }
          return tidyContents(await readResourceFallback(base, uri, signal));
        },
      };
    },
  });

  return {
    up,
    queue,
    async tools(ctx: BackendContext<UmsSettings>): Promise<ToolDef[]> {
      return (await up.tools(ctx)).map((def) => ({
        ...def,
        handler: async (args, call) => {
          await consent(
            call,
            ctx.config.confirm,
            { label: def.name, name: def.name, annotations: def.annotations },
            (args ?? {}) as Record<string, unknown>,
          );
          return queue.run(def.name, call.signal, async () => def.handler(args, { ...call, signal: stopping.signal }), call.progress);
        },
      }));
    },
    prompts: up.prompts,
    resources: up.resources,
    resourceTemplates: up.resourceTemplates,
    start: (ctx: BackendContext<UmsSettings>) => up.start(ctx),
    async stop() {
      stopping.abort(new Error('mcphost is shutting down'));
      await up.stop();
    },
    async health(ctx: BackendContext<UmsSettings>): Promise<HealthReport> {
      const base = baseOf(ctx);
      const client = up.ensure(ctx).client;
      // GET /health decides where the editor serves it; the released plugin does not (404), and an
      // MCP round trip decides. Either way the round trip runs: it is what the tools go through.
      const endpoint = await checkHealth(base, healthWaitMs(ctx));
      const early = (message: string) => ({ ok: false, message, detail: { url: base, ...client.status() } });
      if (endpoint.kind === 'down') return early(notRunning(base, endpoint.reason));
      if (endpoint.kind === 'error') return early(answered(base, endpoint.what));
      if (endpoint.kind === 'busy') return early(busy(base, 'GET /health', healthWaitMs(ctx)));
      const { tools, answered: ok, ...status } = await up.check(ctx);
      const detail = {
        url: base,
        health: endpoint.kind === 'ok' ? 'GET /health' : 'initialize/ping (no /health)',
        ...status,
        ...(tools !== undefined && { tools }),
        ...(queue.running && { running: queue.running.what }),
      };
      if (!ok || status.state !== 'connected') {
        const message =
          status.state === 'connected'
            ? busy(base, 'ping and tools/list', healthWaitMs(ctx))
            : status.state === 'connecting'
              ? busy(base, 'initialize', healthWaitMs(ctx))
              : client.unavailable(status.lastError ?? status.state).message;
        return { ok: false, message, detail };
      }
      const server = status.server ? `${status.server.name} ${status.server.version}` : 'UnrealMCPServer';
      return {
        ok: true,
        message: `${server} is up at ${base} (protocol ${status.protocolVersion ?? '?'}${tools !== undefined ? `, ${tools} tools` : ''})`,
        detail,
      };
    },
  };
}
