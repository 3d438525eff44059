// A `servers.<name>` entry of .mcprc mounted as a backend named <name>: the upstream's tools are
// published as `<name>_<tool>`, its prompts likewise, its resources and templates as they are.
import type { Backend, HealthReport } from '../backend/types.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { UpstreamServerConfig } from '../config/schema.js';
import { createMirroredBackend } from '../kit/mirrored-backend.js';
import type { UpstreamTarget } from '../kit/mcp/client.js';
import { healthWaitMs } from '../kit/mcp/health.js';
import { serverPinKey } from '../config/tool-pins.js';
import { createPinning, pinSummary, type PinMode, type PinStatus } from './pinning.js';
import { signInCommand } from './oauth/errors.js';
import { OAuthSession } from './oauth/session.js';
import { oauthSettings } from './oauth/settings.js';
import { SignInStore } from './oauth/store.js';

export function upstreamTarget(server: UpstreamServerConfig): UpstreamTarget {
  if ('command' in server) return { kind: 'stdio', command: server.command, args: server.args, env: server.env, cwd: server.cwd };
  return { kind: 'http', url: server.url, headers: server.headers };
}

/** What identifies a server for its pins: what starts it (never its env or headers, which hold secrets). */
export function pinTarget(server: UpstreamServerConfig): { key: unknown; shown: string } {
  const target = upstreamTarget(server);
  if (target.kind === 'http') return { key: { url: target.url }, shown: target.url };
  return {
    key: { command: target.command, args: target.args ?? [], cwd: target.cwd ?? '' },
    shown: [target.command, ...(target.args ?? [])].join(' '),
  };
}

/** The pin check of a mounted server: `pinTools` from its entry, else block (a project's file) or warn (the user's own). */
export interface UpstreamPinning {
  mode: PinMode;
}

/**
 * `servers.<name>.pinTools`, else by where the entry is: warn in the user's own config folder,
 * block anywhere else — a project's .mcprc (approved, or named with --config, as a client's entry
 * names it), a client's .mcp.json.
 */
export function pinningFor(
  name: string,
  server: UpstreamServerConfig,
  resolved: Pick<ResolvedConfig, 'trust' | 'imported'>,
): UpstreamPinning {
  if (server.pinTools) return { mode: server.pinTools };
  if (resolved.imported.has(name)) return { mode: 'block' };
  return { mode: resolved.trust?.reason === 'user' ? 'warn' : 'block' };
}

export function createUpstreamBackend(
  name: string,
  server: UpstreamServerConfig,
  env: NodeJS.ProcessEnv,
  pinning: UpstreamPinning = { mode: 'off' },
): Backend {
  const target = upstreamTarget(server);
  const identity = pinTarget(server);
  const oauth = oauthSettings(name, server);
  let session: OAuthSession | undefined;
  let pins: ReturnType<typeof createPinning> | undefined;
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
    mirror: (_client, ctx) => {
      pins = createPinning({ name, key: serverPinKey(name, identity.key), target: identity.shown, mode: pinning.mode, env }, ctx.logger);
      return { allowedTools: server.allowedTools, blockedTools: server.blockedTools, filterTools: pins.filter };
    },
  });
  const pinStatus = (): PinStatus | undefined => pins?.status();

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
      const pinned = pinStatus();
      const changedTools = pinned && pinSummary(name, pinned);
      const detail = { ...status, ...(tools !== undefined && { tools }), ...(changedTools && { pins: pinned }) };
      if (status.state === 'connected' && !status.answered) {
        return {
          ok: false,
          message: `upstream ${name} is connected ${where} but did not answer ping and tools/list within ${healthWaitMs(ctx)} ms (busy or hung)`,
          detail,
        };
      }
      if (status.state === 'connected') {
        const served = status.server ? `${status.server.name} ${status.server.version}` : 'server';
        const connected = `connected to ${served} ${where} (${status.via}${tools !== undefined ? `, ${tools} tools` : ''})`;
        // Withheld tools are something to act on; warned ones are said but do not fail the check.
        if (changedTools) return { ok: pinned.mode !== 'block', message: `${connected}; ${changedTools}`, detail };
        return { ok: true, message: connected, detail };
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
