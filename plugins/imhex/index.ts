// imhex: hex-editor commands — selection, read, write, search, offset info, hexdump — served by
// ImHex's MCP Integration server over TCP, or (the embedded default) by a local file.
import { defineBackend, UnavailableError, type BackendContext, type CallContext } from '../../src/backend/index.js';
import { chooseProvider, configEnv, configSchema, type ImHexConfig } from './config.js';
import { FileProvider } from './local/file-provider.js';
import type { ImHexProvider } from './provider.js';
import { RemoteProvider } from './remote/provider.js';
import { imhexTools } from './tools.js';

/** Builds the provider the config asks for (no I/O yet). */
export function createProvider(ctx: BackendContext<ImHexConfig>): ImHexProvider {
  const config = ctx.config;
  const choice = chooseProvider(config);
  if (choice.kind === 'none') throw new UnavailableError(choice.problem);
  if (choice.kind === 'file') {
    return new FileProvider({
      file: choice.file,
      writable: config.writable,
      allowGrow: config.allowGrow,
      chunkBytes: config.searchChunkBytes,
    });
  }
  return new RemoteProvider({
    host: choice.host,
    port: choice.port,
    connectTimeoutMs: config.connectTimeoutMs,
    requestTimeoutMs: config.requestTimeoutMs,
    logger: ctx.logger,
    unreachableHint: choice.fileFallbackHint
      ? ' (Or work on a local file: set plugins.imhex.file, or pass --file FILE to mcphost call imhex.)'
      : undefined,
  });
}

export default function imhex() {
  let provider: ImHexProvider | undefined;
  const providerFor = async (ctx: CallContext<ImHexConfig>) => {
    provider ??= createProvider(ctx);
    return provider;
  };
  return defineBackend<ImHexConfig>({
    name: 'imhex',
    version: '0.1.0',
    description:
      'Hex editing: selection, read/write bytes, pattern search, offset info and hexdump, on ImHex (MCP Integration, TCP 61100) or a local file',
    configSchema,
    env: configEnv,
    tools: imhexTools(providerFor),
    start(ctx) {
      provider ??= createProvider(ctx);
      // A local file is opened now, so a wrong path is reported before the first tool runs.
      if (provider instanceof FileProvider) return provider.fileHandle().then(() => undefined);
    },
    async stop() {
      const p = provider;
      provider = undefined;
      await p?.close();
    },
    async health(ctx) {
      let p: ImHexProvider;
      try {
        p = provider ?? createProvider(ctx);
      } catch (error) {
        return { ok: false, message: (error as Error).message };
      }
      try {
        return await p.health();
      } finally {
        if (p !== provider) await p.close();
      }
    },
  });
}
