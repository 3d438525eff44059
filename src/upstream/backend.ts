// A `servers.<name>` entry of .mcprc mounted as a backend named <name>: the upstream's tools are
// published as `<name>_<tool>`, its prompts likewise, its resources and templates as they are.
import type { Backend, HealthReport } from '../backend/types.js';
import type { UpstreamServerConfig } from '../config/schema.js';
import { createMirroredBackend } from '../kit/mirrored-backend.js';
import type { UpstreamTarget } from '../kit/mcp/client.js';
import { healthWaitMs } from '../kit/mcp/health.js';
import { signInCommand } from './oauth/errors.js';
import { OAuthSession } from './oauth/session.js';
import { oauthSettings } from './oauth/settings.js';
import { SignInStore } from './oauth/store.js';

export function upstreamTarget(server: UpstreamServerConfig): UpstreamTarget {
  if ('command' in server) return { kind: 'stdio', command: server.command, args: server.args, env: server.env, cwd: server.cwd };
  return { kind: 'http', url: server.url, headers: server.headers };
}

export function createUpstreamBackend(name: string, server: UpstreamServerConfig, env: NodeJS.ProcessEnv): Backend {
  const target = upstreamTarget(server);
  const oauth = oauthSettings(name, server);
  let session: OAuthSession | undefined;
  const up = createMirroredBackend({
    name,
    client: (ctx) => {
      // A server that wants OAuth is sent the user's tokens from `mcphost auth`, renewed as they expire; never a browser.
      if (oauth && target.kind === 'http') {
        session ??= new OAuthSession({ settings: oauth, store: SignInStore.for(env, name, oauth.url), logger: ctx.logger });
        const signedIn = session;
        target.auth = { provider: signedIn, refused: () => signedIn.refused() };
      }
      return { target, env, connectTimeoutMs: server.connectTimeoutMs, keepAlive: server.eager === true, protocol: server.protocol };
    },
    mirror: () => ({ allowedTools: server.allowedTools, blockedTools: server.blockedTools }),
  });

  const where = target.kind === 'http' ? `at ${target.url}` : `\`${[target.command, ...(target.args ?? [])].join(' ')}\``;
  const fix =
    target.kind === 'http'
      ? `start the server at ${target.url}, or fix servers.${name}.url in .mcprc`
      : `fix servers.${name}.command/args in .mcprc, or run the command by hand to see why it stops`;

  return {
    name,
    get version() {
      return up.client?.status().server?.version ?? 'upstream';
    },
    description: `MCP server ${where}`,
    tools: up.tools,
    prompts: up.prompts,
    resources: up.resources,
    resourceTemplates: up.resourceTemplates,
    start: up.start,
    stop: () => up.stop(),
    async health(ctx): Promise<HealthReport> {
      const { client } = up.ensure(ctx);
      const { tools, ...status } = await up.check(ctx);
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
      // Down for want of a sign-in: the command is the whole fix (not "start the server").
      if (status.lastError?.includes(`\`${signInCommand(name)}\``)) {
        return {
          ok: false,
          message: `upstream ${name} needs a sign-in: ${status.lastError}`,
          detail: { ...detail, signIn: signInCommand(name) },
        };
      }
      const retry = status.retryInMs !== undefined ? ` (next restart attempt in ${Math.ceil(status.retryInMs / 1000)} s)` : '';
      return { ok: false, message: `upstream ${name} is down: ${status.lastError ?? status.state}${retry}; ${fix}`, detail };
    },
  };
}
