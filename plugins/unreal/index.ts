// unreal: the Unreal Editor's own MCP server (the UnrealMCPServer plugin, HTTP on port 30069,
// MCP 2025-03-26, request/response only). Its tools are published as `unreal_<tool>`, its resources
// with their own URIs. The editor is reached on first use and again after it restarts.
import * as z from 'zod';
import { defineBackend, type Backend, type BackendContext, type HealthReport } from '../../src/backend/index.js';
import { UpstreamClient, createMirror, type Mirror } from '../../src/kit/index.js';
import { checkHealth, editorBase, listResourcesFallback, notReachable, readResourceFallback } from './editor.js';

const configSchema = z.object({
  url: z
    .url({ protocol: /^https?$/ })
    .default('http://127.0.0.1:30069')
    .describe('address of the editor’s UnrealMCPServer (its MCP endpoint is <url>/mcp)'),
});

type Config = z.output<typeof configSchema>;

/** -32601: the editor's /mcp does not implement the method (older builds serve resources on /-/ only). */
const notOffered = (error: unknown) => (error as { code?: unknown })?.code === -32601;

export default function unreal(): Backend<Config> {
  let up: { client: UpstreamClient; mirror: Mirror; base: string } | undefined;

  function ensure(ctx: BackendContext<Config>) {
    if (up) return up;
    const base = editorBase(ctx.config.url);
    const client = new UpstreamClient({
      name: 'unreal',
      target: { kind: 'http', url: `${base}/mcp` },
      logger: ctx.logger,
      sseFallback: false,
      connectTimeoutMs: 10_000,
      describeDown: (reason) => notReachable(base, reason.replace(/ at https?:\/\/\S+/, '').replace(' (is it running?)', '')),
      onListChanged: (kind) => ctx.notifyListChanged(kind),
    });
    const viaMcp = async () => Boolean((await client.connect()).getServerCapabilities()?.resources);
    const mirror = createMirror({
      name: 'unreal',
      client,
      logger: ctx.logger,
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
            return await client.request((c) => c.readResource({ uri }, { signal }), signal);
          } catch (error) {
            if (!notOffered(error)) throw error;
          }
        }
        return readResourceFallback(base, uri, signal);
      },
    });
    up = { client, mirror, base };
    return up;
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
    async stop() {
      await up?.client.close();
    },
    async health(ctx): Promise<HealthReport> {
      const { client, mirror, base } = ensure(ctx);
      const health = await checkHealth(base);
      if (!health.ok) return { ok: false, message: notReachable(base, health.reason), detail: { url: base, ...client.status() } };
      const status = client.status();
      const tools = mirror.toolCount();
      const server = status.server ? `${status.server.name} ${status.server.version}` : 'UnrealMCPServer';
      return {
        ok: true,
        message: `${server} is up at ${base}${tools !== undefined ? ` (${tools} tools)` : ''}`,
        detail: { url: base, ...status, ...(tools !== undefined && { tools }) },
      };
    },
  });
}
