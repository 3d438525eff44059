// `mcphost trust --tools <server>`: pins the tools a mounted server lists now, so those that changed
// since it was approved (or are new) are served again (see upstream/pinning.ts). The server starts
// only as it would anyway: from a file that is approved, or the user's own.
import type { Tool } from '@modelcontextprotocol/client';
import { serverPinKey } from '../config/tool-pins.js';
import { notTrustedText } from '../config/trust.js';
import { UpstreamClient } from '../kit/mcp/client.js';
import { closest } from '../kit/closest.js';
import { pinTarget, upstreamTarget } from '../upstream/backend.js';
import { approveTools, type ChangedTool } from '../upstream/pinning.js';
import { openConfig, type OpenOptions } from './open.js';
import { UsageError } from './usage-error.js';

export interface ToolApproval {
  server: string;
  /** Every tool pinned now. */
  tools: string[];
  /** What this approved that differed from the earlier pins. */
  changed: ChangedTool[];
  added: string[];
  store: string;
}

export async function approveServerTools(options: OpenOptions & { server: string }): Promise<ToolApproval> {
  const { resolved, logger } = await openConfig({ ...options, writeLog: options.writeLog ?? (() => undefined) });
  const name = options.server;
  const server = resolved.config.servers[name];
  if (!server) {
    const known = Object.keys(resolved.config.servers);
    const [guess] = closest(name, known);
    throw new UsageError(
      `no mounted server ${name}${guess ? ` (did you mean ${guess}?)` : ''}: the servers here are ${known.join(', ') || 'none'}`,
    );
  }
  const from = resolved.imported.get(name);
  const trust = from ? from.trust : resolved.trust;
  if (trust && !trust.trusted) throw new UsageError(`${name} does not start until its file is approved: ${notTrustedText(trust)} first`);
  const client = new UpstreamClient({
    name,
    target: upstreamTarget(server),
    env: resolved.env,
    logger,
    connectTimeoutMs: server.connectTimeoutMs,
    protocol: server.protocol,
  });
  let tools: Tool[];
  try {
    await client.connect();
    tools = (await client.request((c) => c.listTools(undefined, client.listOptions()))).tools;
  } finally {
    await client.close();
  }
  const identity = pinTarget(server);
  const approved = approveTools({ name, key: serverPinKey(name, identity.key), target: identity.shown, env: options.env }, tools);
  return { server: name, tools: tools.map((t) => t.name), changed: approved.changed, added: approved.added, store: approved.file };
}
