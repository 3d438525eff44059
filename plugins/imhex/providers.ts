// Builds the provider the config asks for, and finds one in `auto` mode. The two ImHex providers
// are imported only when asked for: a local-file call (the common one-shot case) never loads the
// MCP client, execa or the TCP client.
import { availableParallelism } from 'node:os';
import { requireApproved, UnavailableError, type BackendContext } from '../../src/backend/index.js';
import { chooseProvider, type ImHexConfig } from './config.js';
import { FileProvider } from './local/file-provider.js';
import type { StockImHex } from './mcp/stock-client.js';
import type { ImHexProvider } from './provider.js';

const FILE_HINT = 'Or work on a local file: set plugins.imhex.file, or pass --file FILE to mcphost call imhex.';

/** The backend's stock ImHex connection: one `imhex --mcp` child shared by the provider and ImHex's own tools. */
export class StockHolder {
  /** The connection once one was asked for (reading this starts nothing). */
  current?: StockImHex;
  private stock?: Promise<StockImHex>;
  private readonly onToolsChanged: () => void;

  constructor(onToolsChanged: () => void) {
    this.onToolsChanged = onToolsChanged;
  }

  get(ctx: BackendContext<ImHexConfig>): Promise<StockImHex> {
    // Not the default `imhex --mcp` in its place: another program than the one the file names.
    requireApproved(ctx, ['mcpCommand'], 'stock ImHex cannot be started');
    this.stock ??= (async () => {
      const [{ StockImHex }, { commandArgv }] = await Promise.all([import('./mcp/stock-client.js'), import('./mcp/command.js')]);
      const [command, ...args] = commandArgv(ctx.config.mcpCommand);
      this.current = new StockImHex({
        command,
        args,
        logger: ctx.logger,
        connectTimeoutMs: ctx.config.mcpConnectTimeoutMs,
        requestTimeoutMs: ctx.config.requestTimeoutMs,
        onToolsChanged: this.onToolsChanged,
      });
      return this.current;
    })();
    return this.stock;
  }

  async close(): Promise<void> {
    const stock = this.stock;
    this.stock = undefined;
    this.current = undefined;
    await (await stock?.catch(() => undefined))?.close();
  }
}

function fileProvider(config: ImHexConfig, file: string, ctx: BackendContext<ImHexConfig>): FileProvider {
  return new FileProvider({
    file,
    writable: config.writable,
    allowGrow: config.allowGrow,
    chunkBytes: config.searchChunkBytes,
    searchThreads: config.searchThreads ?? Math.min(availableParallelism(), 4),
    logger: ctx.logger,
  });
}

async function tcpProvider(config: ImHexConfig, ctx: BackendContext<ImHexConfig>, hint?: string): Promise<ImHexProvider> {
  const { RemoteProvider } = await import('./remote/provider.js');
  return new RemoteProvider({
    host: config.host,
    port: config.port,
    connectTimeoutMs: config.connectTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    logger: ctx.logger,
    unreachableHint: hint,
  });
}

async function stockProvider(ctx: BackendContext<ImHexConfig>, stock: StockHolder): Promise<ImHexProvider> {
  const { StockProvider } = await import('./mcp/stock-provider.js');
  return new StockProvider(await stock.get(ctx), { pieceBytes: ctx.config.mcpPieceBytes });
}

/**
 * The provider for this config. In auto mode without a file it is whichever ImHex answers first:
 * the MCP Integration plugin over TCP, then stock ImHex through `imhex --mcp`; when neither does,
 * the error names both and the local-file settings.
 */
export async function createProvider(ctx: BackendContext<ImHexConfig>, stock: StockHolder): Promise<ImHexProvider> {
  const config = ctx.config;
  const choice = chooseProvider(config);
  switch (choice.kind) {
    case 'none':
      throw new UnavailableError(choice.problem);
    case 'file':
      return fileProvider(config, choice.file, ctx);
    case 'imhex':
      return tcpProvider(config, ctx, choice.fileFallbackHint ? ` (${FILE_HINT})` : undefined);
    case 'imhex-mcp':
      return stockProvider(ctx, stock);
    case 'auto':
      return findImHex(ctx, stock);
  }
}

async function findImHex(ctx: BackendContext<ImHexConfig>, stock: StockHolder): Promise<ImHexProvider> {
  const tcp = await tcpProvider(ctx.config, ctx);
  const tcpHealth = await tcp.health();
  if (tcpHealth.ok) {
    ctx.logger.info(`auto: using ${tcp.label}`);
    return tcp;
  }
  await tcp.close();
  let mcp: ImHexProvider;
  try {
    mcp = await stockProvider(ctx, stock);
    await (await stock.get(ctx)).connect();
  } catch (error) {
    throw new UnavailableError(`No ImHex found (mode auto): ${tcpHealth.message}; and ${(error as Error).message}. ${FILE_HINT}`, {
      cause: error,
      data: { tried: ['imhex', 'imhex-mcp'] },
    });
  }
  ctx.logger.info(`auto: using ${mcp.label}`);
  return mcp;
}
