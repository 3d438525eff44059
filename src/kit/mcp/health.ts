// The health check every MCP-fronting backend shares (mounted servers, unreal): a round trip to the
// server and its tools listed, within a wait that suits the caller.
import type { BackendContext } from '../../backend/types.js';
import type { UpstreamClient } from './client.js';
import type { Mirror } from './mirror.js';

/**
 * How long a health check waits for the server: up to 4 s in a one-shot command (doctor, servers;
 * the host gives a check 5 s in all), 1 s while serving, where /health must answer promptly.
 */
export const healthWaitMs = (ctx: BackendContext) => (ctx.serving ? 1_000 : 4_000);

/**
 * What a health check sees: a round trip to the server (ping, or connecting — joining a connect in
 * progress) and its tools listed, so the count is what clients get; both within healthWaitMs.
 */
export async function checkUpstream(client: UpstreamClient, mirror: Mirror, ctx: BackendContext) {
  let timer: NodeJS.Timeout | undefined;
  const ms = healthWaitMs(ctx);
  const trip = async () =>
    (await client.probe(ms)) &&
    client.state === 'connected' &&
    mirror.tools(ctx).then(
      () => true,
      () => true,
    );
  const answered = await Promise.race([trip(), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
  clearTimeout(timer);
  return { ...client.status(), answered };
}
