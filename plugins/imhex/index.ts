// imhex: hex-editor commands — selection, read, write, search, offset info, hexdump — served by a
// local file (the embedded default), ImHex's MCP Integration plugin over TCP, or stock ImHex's own
// MCP server through `imhex --mcp`; with stock ImHex, its own tools (open_file, pattern code, …) too.
import { defineBackend, ToolError, type BackendContext, type CallContext, type ListKind } from '../../src/backend/index.js';
import { configEnv, configSchema, type ImHexConfig } from './config.js';
import { FileProvider } from './local/file-provider.js';
import type { ImHexProvider } from './provider.js';
import { createProvider, StockHolder } from './providers.js';
import { imhexTools, withStockNotes } from './tools.js';
import { viewResources } from './views.js';

export { createProvider };

/** Stock ImHex's own tools are listed when the plugin may end up talking to it. */
const mayUseStock = (config: ImHexConfig) => config.mode === 'imhex-mcp' || (config.mode === 'auto' && !config.file);

export default function imhex() {
  let provider: Promise<ImHexProvider> | undefined;
  let notify: ((kind: ListKind) => void) | undefined;
  const stock = new StockHolder(() => notify?.('tools'));

  const providerFor = (ctx: BackendContext<ImHexConfig>) => {
    notify ??= ctx.notifyListChanged;
    provider ??= createProvider(ctx, stock).catch((error) => {
      provider = undefined; // nothing found: look again on the next call
      throw error;
    });
    return provider;
  };

  const stockFor = async (ctx: CallContext<ImHexConfig>) => {
    if (ctx.config.mode === 'auto') {
      const p = await providerFor(ctx);
      if (p.kind !== 'imhex-mcp') {
        throw new ToolError(
          `this is one of stock ImHex's own tools, but mode auto found ${p.label} first: set plugins.imhex.mode: imhex-mcp to use stock ImHex`,
          { code: 'UNAVAILABLE' },
        );
      }
    }
    return stock.get(ctx);
  };

  const seed = imhexTools(providerFor);
  const seedNames = new Set(seed.map((t) => t.name));

  return defineBackend<ImHexConfig>({
    name: 'imhex',
    version: '0.2.0',
    description:
      'Hex editing: selection, read/write bytes, pattern search, offset info and hexdump, on a local file, ImHex (MCP Integration plugin, TCP 61100) ' +
      "or stock ImHex's own MCP server (imhex --mcp), whose pattern-language tools are published too",
    configSchema,
    env: configEnv,
    tools: async (ctx) => {
      notify ??= ctx.notifyListChanged;
      if (!mayUseStock(ctx.config)) return seed;
      // Only a config that may reach stock ImHex loads its tool list and the MCP client behind it.
      const [{ KNOWN_TOOLS }, { stockToolDefs }] = await Promise.all([import('./mcp/known-tools.js'), import('./mcp/stock-tools.js')]);
      const known = stock.current?.tools() ?? KNOWN_TOOLS;
      return [...withStockNotes(seed, known, ctx.config.mode === 'imhex-mcp'), ...stockToolDefs(known, seedNames, stockFor)];
    },
    resources: viewResources,
    async start(ctx) {
      const p = await providerFor(ctx);
      // A local file is opened now, so a wrong path is reported before the first tool runs.
      if (p instanceof FileProvider) await p.open();
    },
    async stop() {
      const p = provider;
      provider = undefined;
      await Promise.allSettled([(await p?.catch(() => undefined))?.close(), stock.close()]);
    },
    async health(ctx) {
      let p: ImHexProvider;
      try {
        p = await providerFor(ctx);
      } catch (error) {
        return { ok: false, message: (error as Error).message };
      }
      const report = await p.health();
      return ctx.config.mode === 'auto' && !ctx.config.file
        ? { ...report, message: `mode auto found ${p.label}: ${report.message}` }
        : report;
    },
  });
}
