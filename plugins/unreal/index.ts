// unreal: the Unreal Editor's own MCP server (the UnrealMCPServer plugin, HTTP on port 30069,
// request/response only: protocol 2024-11-05 in the released plugin, 2025-03-26 in the seed).
// Its tools are published as `unreal_<tool>`, its resources and templates with their own URIs.
// The editor is reached on first use and again after it restarts; while it is closed, the tools
// it last listed stay listed (kept in the cache folder across runs) and answer what to start.
import * as z from 'zod';
import { defineBackend, type Backend, type BackendContext, type HealthReport } from '../../src/backend/index.js';
import { UpstreamClient, checkUpstream, createMirror, healthWaitMs, type Mirror } from '../../src/kit/index.js';
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

const configSchema = z.object({
  url: z
    .url({ protocol: /^https?$/ })
    .default('http://127.0.0.1:30069')
    .describe('address of the editor’s UnrealMCPServer (its MCP endpoint is <url>/mcp)'),
});

type Config = z.output<typeof configSchema>;

/** -32601: the editor's /mcp does not implement the method (the seed's older builds serve resources on /-/ only). */
const notOffered = (error: unknown) => (error as { code?: unknown })?.code === -32601;

export default function unreal(): Backend<Config> {
  let up: { client: UpstreamClient; mirror: Mirror; base: string } | undefined;

  function ensure(ctx: BackendContext<Config>) {
    if (up) return up;
    const base = editorBase(ctx.config.url);
    const client = new UpstreamClient({
      name: 'unreal',
      label: `Unreal Editor at ${base}`,
      target: { kind: 'http', url: `${base}/mcp` },
      logger: ctx.logger,
      sseFallback: false,
      connectTimeoutMs: 10_000,
      describeDown: (reason) => describeDown(base, reason),
      onListChanged: (kind) => ctx.notifyListChanged(kind),
    });
    const viaMcp = async () => Boolean((await client.connect()).getServerCapabilities()?.resources);
    const mirror = createMirror({
      name: 'unreal',
      client,
      logger: ctx.logger,
      cacheDir: ctx.cacheDir,
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
    });
    up = { client, mirror, base };
    return up;
  }

  /** The round trip the tools go through; the editor answers one request at a time, so a long tool holds it. */
  async function roundTrip(ctx: BackendContext<Config>) {
    const { client, mirror } = ensure(ctx);
    const { answered } = await checkUpstream(client, mirror, ctx);
    return { ok: answered && client.state === 'connected', status: client.status(), tools: mirror.toolCount() };
  }

  return defineBackend<Config>({
    name: 'unreal',
    version: '0.1.0',
    description: 'Unreal Editor (UnrealMCPServer plugin): the editor’s tools and resources',
    configSchema,
    env: { url: 'UNREAL_MCP_URL' },
    tools: (ctx) => ensure(ctx).mirror.tools(ctx),
    prompts: (ctx) => ensure(ctx).mirror.prompts(ctx),
    resources: (ctx) => ensure(ctx).mirror.resources(ctx),
    resourceTemplates: (ctx) => ensure(ctx).mirror.resourceTemplates(ctx),
    async start(ctx) {
      // A call finds the editor here first: "not running at …, start it" rather than a failed request.
      await ensure(ctx).client.connect();
    },
    async stop() {
      await up?.client.close();
    },
    async health(ctx): Promise<HealthReport> {
      const { client, base } = ensure(ctx);
      // GET /health decides where the editor serves it; the released plugin does not (404), and an
      // MCP round trip decides. Either way the round trip runs: it is what the tools go through.
      const endpoint = await checkHealth(base, healthWaitMs(ctx));
      const early = (message: string) => ({ ok: false, message, detail: { url: base, ...client.status() } });
      if (endpoint.kind === 'down') return early(notRunning(base, endpoint.reason));
      if (endpoint.kind === 'error') return early(answered(base, endpoint.what));
      if (endpoint.kind === 'busy') return early(busy(base, 'GET /health', healthWaitMs(ctx)));
      const trip = await roundTrip(ctx);
      const detail = {
        url: base,
        health: endpoint.kind === 'ok' ? 'GET /health' : 'initialize/ping (no /health)',
        ...trip.status,
        ...(trip.tools !== undefined && { tools: trip.tools }),
      };
      if (!trip.ok) {
        const message =
          trip.status.state === 'connected'
            ? busy(base, 'ping and tools/list', healthWaitMs(ctx))
            : trip.status.state === 'connecting'
              ? busy(base, 'initialize', healthWaitMs(ctx))
              : client.unavailable(trip.status.lastError ?? trip.status.state).message;
        return { ok: false, message, detail };
      }
      const server = trip.status.server ? `${trip.status.server.name} ${trip.status.server.version}` : 'UnrealMCPServer';
      return { ok: true, message: `${server} is up at ${base}${trip.tools !== undefined ? ` (${trip.tools} tools)` : ''}`, detail };
    },
  });
}
