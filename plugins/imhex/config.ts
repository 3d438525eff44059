// The `plugins.imhex` section of .mcprc and the choice of provider it implies.
import * as z from 'zod';
import { configPath } from '../../src/backend/index.js';

export const DEFAULT_PORT = 61100;

export const configSchema = z.object({
  mode: z
    .enum(['auto', 'file', 'imhex'])
    .default('auto')
    .describe('auto: the local file when `file` is set, else ImHex over TCP; file: always the local file; imhex: always ImHex'),
  file: configPath().optional().describe('local file the tools work on (the embedded provider); relative to the config file'),
  writable: z.boolean().default(false).describe('allow write_bytes on the local file'),
  allowGrow: z.boolean().default(false).describe('allow write_bytes to extend the local file past its end'),
  host: z.string().min(1).default('127.0.0.1').describe("address of ImHex's MCP Integration server"),
  port: z.number().int().min(1).max(65535).default(DEFAULT_PORT).describe("port of ImHex's MCP Integration server"),
  connectTimeoutMs: z.number().int().positive().default(3_000).describe('how long to wait for a TCP connection to ImHex'),
  requestTimeoutMs: z.number().int().positive().default(10_000).describe('how long to wait for ImHex to answer one command'),
  maxBytes: z
    .number()
    .int()
    .positive()
    .max(256 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('largest read_bytes/hexdump count and write_bytes size per call'),
  searchChunkBytes: z
    .number()
    .int()
    .min(4096)
    .max(256 * 1024 * 1024)
    .default(4 * 1024 * 1024)
    .describe('bytes read per step when searching the local file'),
});

export type ImHexConfig = z.output<typeof configSchema>;

export const configEnv = {
  mode: 'IMHEX_MODE',
  file: 'IMHEX_FILE',
  writable: 'IMHEX_WRITABLE',
  host: 'IMHEX_HOST',
  port: 'IMHEX_PORT',
};

export type ProviderChoice =
  | { kind: 'file'; file: string }
  | { kind: 'imhex'; host: string; port: number; fileFallbackHint: boolean }
  | { kind: 'none'; problem: string };

/** Which provider the config asks for. `auto` uses the file when one is set, ImHex otherwise. */
export function chooseProvider(config: ImHexConfig): ProviderChoice {
  if (config.mode === 'imhex' || (config.mode === 'auto' && !config.file)) {
    return { kind: 'imhex', host: config.host, port: config.port, fileFallbackHint: config.mode === 'auto' };
  }
  if (!config.file) {
    return {
      kind: 'none',
      problem: 'plugins.imhex.mode is "file" but no file is set: set plugins.imhex.file (or IMHEX_FILE, or --file on mcphost call imhex)',
    };
  }
  return { kind: 'file', file: config.file };
}
