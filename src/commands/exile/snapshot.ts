import { Flags } from '@oclif/core';
import path from 'node:path';
import * as z from 'zod';
import { isToolError, type Logger } from '../../backend/index.js';
import { Exit } from '../../cli/exit-codes.js';
import { HostCommand } from '../../cli/host-command.js';
import { resolvePluginConfig, type ResolvedConfig } from '../../config/resolve.js';
import { importBackend } from '../../loader/load.js';
import type { ExileProvider } from '../../../plugins/exile/provider.js';
import { recordSnapshot, saveSnapshot } from '../../../plugins/exile/snapshot/index.js';

const DEFAULT_URL = 'http://127.0.0.1:5099/mcp';
/** Compiled next to this file as dist/plugins/exile/remote.js; loaded lazily (the exile plugin's remote mode). */
const REMOTE_MODULE = new URL('../../../plugins/exile/remote.js', import.meta.url);

type RemoteFactory = (options: { url: string; timeoutMs?: number; logger?: Logger }) => ExileProvider;

export default class ExileSnapshot extends HostCommand {
  static override summary = 'Record the live ExileApi HUD into a snapshot file the exile tools can serve offline.';
  static override description =
    'Walks the HUD through its explore tool (breadth-first from the roots, objects identified by type and Address) and writes the ' +
    'object graph plus the type metadata as one JSON document (format mcphost-exile-snapshot, see docs/exile-snapshot.md). ' +
    'Serve it with plugins.exile.snapshot in .mcprc, or `mcphost call exile <tool> --snapshot FILE`. ' +
    'The HUD address comes from --url, else plugins.exile.url. Exit codes: 0 written, 1 usage, 3 invalid config, 4 HUD unreachable, 5 the HUD returned an error.';
  static override examples = [
    '<%= config.bin %> exile:snapshot --out state.json',
    '<%= config.bin %> exile:snapshot --out player.json --roots Player,Entities --depth 6',
    '<%= config.bin %> exile:snapshot --out offsets.json --roots Player --types "*Offsets"',
  ];
  static override enableJsonFlag = true;
  static override flags = {
    out: Flags.string({ char: 'o', description: 'snapshot file to write' }),
    roots: Flags.string({ description: 'comma-separated roots to record (default: all but Files and Memory)' }),
    depth: Flags.integer({ description: 'object levels recorded below each root', default: 8, min: 1, max: 32 }),
    items: Flags.integer({ description: 'items recorded per collection', default: 10_000, min: 1, max: 10_000 }),
    types: Flags.string({ description: 'comma-separated globs of extra types whose metadata to record ("*" for all)' }),
    url: Flags.string({ description: `the HUD's MCP endpoint (default: plugins.exile.url, else ${DEFAULT_URL})` }),
  };

  async run() {
    const { flags } = await this.parse(ExileSnapshot);
    if (!flags.out) this.error('--out is required: the snapshot file to write, e.g. --out state.json', { exit: Exit.USAGE });
    const options = this.hostOptions(flags);
    const { resolved, logger } = await this.openConfig(options);
    const url = flags.url ?? (await configuredUrl(resolved, options.installed, logger));
    const remote = (await loadRemoteFactory(this))({ url, logger });
    const abort = new AbortController();
    process.once('SIGINT', () => abort.abort(new Error('interrupted')));
    let last = 0;
    try {
      const doc = await recordSnapshot(remote, {
        roots: split(flags.roots),
        depth: flags.depth,
        items: flags.items,
        types: split(flags.types),
        signal: abort.signal,
        logger,
        source: { url },
        progress: (p) => {
          if (Date.now() - last < 250) return;
          last = Date.now();
          process.stderr.write(`progress ${p.progress}/${p.total} ${p.message ?? ''}\n`);
        },
      });
      const out = path.resolve(flags.out);
      const bytes = await saveSnapshot(out, doc);
      const summary = { out, url, roots: Object.keys(doc.roots), types: Object.keys(doc.types).length, bytes };
      if (!this.jsonEnabled()) this.log(`wrote ${out} (${bytes} bytes): roots ${summary.roots.join(', ')}; ${summary.types} types`);
      return summary;
    } catch (error) {
      if (isToolError(error)) this.error(error.message, { exit: error.code === 'UNAVAILABLE' ? Exit.UNAVAILABLE : Exit.TOOL_ERROR });
      throw error;
    } finally {
      await remote.close();
    }
  }
}

function split(value: string | undefined): string[] | undefined {
  const list = value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list && list.length > 0 ? list : undefined;
}

/** plugins.exile.url, validated by the exile plugin's own schema when it is installed (env variables included). */
async function configuredUrl(
  resolved: ResolvedConfig,
  installed: Parameters<typeof importBackend>[1]['installed'],
  logger: Logger,
): Promise<string> {
  let schema: z.ZodType = z.looseObject({ url: z.string().min(1).default(DEFAULT_URL) });
  let env: Record<string, string> | undefined;
  try {
    const { backend } = await importBackend('exile', { resolved, installed, logger });
    if (backend.configSchema) schema = backend.configSchema;
    env = backend.env;
  } catch {
    // No exile plugin in this build: read the section with the url key alone.
  }
  const config = resolvePluginConfig(resolved, { name: 'exile', schema, env }) as { url?: unknown };
  return typeof config.url === 'string' && config.url !== '' ? config.url : DEFAULT_URL;
}

async function loadRemoteFactory(command: HostCommand): Promise<RemoteFactory> {
  try {
    const mod = (await import(REMOTE_MODULE.href)) as { createRemoteProvider?: RemoteFactory };
    if (typeof mod.createRemoteProvider === 'function') return mod.createRemoteProvider;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
  }
  return command.error('this mcphost has no exile remote mode (plugins/exile/remote.js): it cannot reach the HUD', { exit: Exit.PLUGIN });
}
