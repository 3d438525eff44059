// A `servers.<name>` entry of .mcprc mounted as a backend named <name>: the upstream's tools are
// published as `<name>_<tool>`, its prompts likewise, its resources and templates as they are.
import type { Backend, BackendContext, HealthReport } from '../backend/types.js';
import type { UpstreamServerConfig } from '../config/schema.js';
import { UpstreamClient, type UpstreamTarget } from './client.js';
import { createMirror, type Mirror } from './mirror.js';
import { checkUpstream, healthWaitMs } from './health.js';

export function upstreamTarget(server: UpstreamServerConfig): UpstreamTarget {
  if ('command' in server) return { kind: 'stdio', command: server.command, args: server.args, env: server.env, cwd: server.cwd };
  return { kind: 'http', url: server.url, headers: server.headers };
}

export function createUpstreamBackend(name: string, server: UpstreamServerConfig, env: NodeJS.ProcessEnv): Backend {
  const target = upstreamTarget(server);
  let up: { client: UpstreamClient; mirror: Mirror } | undefined;

  /** The client is built on first use, from the first context the host hands over. */
  function ensure(ctx: BackendContext) {
    if (up) return up;
    const client = new UpstreamClient({
      name,
      target,
      env,
      logger: ctx.logger,
      connectTimeoutMs: server.connectTimeoutMs,
      keepAlive: server.eager === true,
      onListChanged: (kind) => ctx.notifyListChanged(kind),
    });
    const mirror = createMirror({
      name,
      client,
      logger: ctx.logger,
      allowedTools: server.allowedTools,
      blockedTools: server.blockedTools,
      cacheDir: ctx.cacheDir,
    });
    up = { client, mirror };
    return up;
  }

  const where = target.kind === 'http' ? `at ${target.url}` : `\`${[target.command, ...(target.args ?? [])].join(' ')}\``;
  const fix =
    target.kind === 'http'
      ? `start the server at ${target.url}, or fix servers.${name}.url in .mcprc`
      : `fix servers.${name}.command/args in .mcprc, or run the command by hand to see why it stops`;

  return {
    name,
    get version() {
      return up?.client.status().server?.version ?? 'upstream';
    },
    description: `MCP server ${where}`,
    tools: (ctx) => ensure(ctx).mirror.tools(ctx),
    prompts: (ctx) => ensure(ctx).mirror.prompts(ctx),
    resources: (ctx) => ensure(ctx).mirror.resources(ctx),
    resourceTemplates: (ctx) => ensure(ctx).mirror.resourceTemplates(ctx),
    async start(ctx) {
      await ensure(ctx).client.connect();
    },
    async stop() {
      await up?.client.close();
    },
    async health(ctx): Promise<HealthReport> {
      const { client, mirror } = ensure(ctx);
      const status = await checkUpstream(client, mirror, ctx);
      const tools = mirror.toolCount();
      const detail = { ...status, ...(tools !== undefined && { tools }) };
      if (status.state === 'connected' && !status.answered) {
        return {
          ok: false,
          message: `upstream ${name} is connected ${where} but did not answer ping and tools/list within ${healthWaitMs(ctx)} ms (busy or hung)`,
          detail,
        };
      }
      if (status.state === 'connected') {
        const served = status.server ? `${status.server.name} ${status.server.version}` : 'server';
        return {
          ok: true,
          message: `connected to ${served} ${where} (${status.via}${tools !== undefined ? `, ${tools} tools` : ''})`,
          detail,
        };
      }
      if (status.state === 'connecting') {
        const limit = server.connectTimeoutMs ?? 30_000;
        return {
          ok: false,
          message: `upstream ${name} has not answered initialize yet (waiting ${Math.round((client.connectingForMs() ?? 0) / 1000)} s of connectTimeoutMs ${limit}); ${fix}`,
          detail,
        };
      }
      const retry = status.retryInMs !== undefined ? ` (next restart attempt in ${Math.ceil(status.retryInMs / 1000)} s)` : '';
      return { ok: false, message: `upstream ${name} is down: ${status.lastError ?? status.state}${retry}; ${fix}`, detail };
    },
  };
}
