// The `plugins.imhex` section of .mcprc and the choice of provider it implies.
import * as z from 'zod';
import { configPath, runs } from '../../src/backend/index.js';

const DEFAULT_PORT = 61100;

const DEFAULT_MCP_COMMAND = 'imhex --mcp';
/** ImHex's read_data answers at most this much (plugins/builtin/romfs/mcp/tools/read_data.json). */
/**
 * ImHex reads at most 16 MiB per read_data, but answers with the bytes in base64 twice (text and
 * structuredContent), and mcphost refuses a stdio message over 10 MiB: 3 MiB of bytes is about 8 MiB.
 */
const MAX_PIECE_BYTES = 3 * 1024 * 1024;

export const configSchema = z.object({
  mode: z
    .enum(['auto', 'file', 'imhex', 'imhex-mcp'])
    .default('auto')
    .describe(
      'auto: the local file when `file` is set, else ImHex (its MCP Integration plugin over TCP, then stock ImHex through `imhex --mcp`); ' +
        'file: always the local file; imhex: always the MCP Integration plugin over TCP; imhex-mcp: always stock ImHex through its MCP server',
    ),
  file: configPath().optional().describe('local file the tools work on (the embedded provider); relative to the config file'),
  writable: z.boolean().default(false).describe('allow write_bytes on the local file'),
  allowGrow: z.boolean().default(false).describe('allow write_bytes to extend the local file past its end'),
  host: z.string().min(1).default('127.0.0.1').describe("address of ImHex's MCP Integration server"),
  port: z.number().int().min(1).max(65535).default(DEFAULT_PORT).describe("port of ImHex's MCP Integration server"),
  mcpCommand: runs(z.union([z.string().trim().min(1), z.array(z.string().min(1)).min(1)]))
    .default(DEFAULT_MCP_COMMAND)
    .describe(
      "command that reaches stock ImHex's MCP server over stdio: a string (spaces inside an argument escaped with \\) or an array of arguments",
    ),
  mcpConnectTimeoutMs: z
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .default(15_000)
    .describe('how long `imhex --mcp` gets to start and answer the initialize handshake'),
  mcpPieceBytes: z
    .number()
    .int()
    .min(4096)
    .max(MAX_PIECE_BYTES, {
      message: `at most ${MAX_PIECE_BYTES} (3 MiB): ImHex's answer holds the bytes twice in base64, and mcphost takes at most 10 MiB from a stdio server`,
    })
    .default(1024 * 1024)
    .describe("bytes asked of stock ImHex's read_data per request (4 KiB to 3 MiB: each answer carries them twice in base64)"),
  connectTimeoutMs: z
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .default(3_000)
    .describe("how long to wait for a TCP connection to ImHex's MCP Integration server"),
  requestTimeoutMs: z
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .default(10_000)
    .describe('how long to wait for ImHex to answer one command'),
  maxBytes: z
    .number()
    .int()
    .positive()
    .max(16 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('largest read_bytes count and write_bytes size per call (hexdump: at most 256 KiB)'),
  searchChunkBytes: z
    .number()
    .int()
    .min(4096)
    .max(256 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('bytes read per step when searching the local file'),
  searchThreads: z
    .number()
    .int()
    .min(0)
    .max(64)
    .optional()
    .describe(
      'worker threads for searches of 8 MiB or more of the local file (default: the cores, at most 4; 0: search on the main thread)',
    ),
});

export type ImHexConfig = z.output<typeof configSchema>;

export const configEnv = {
  mode: 'IMHEX_MODE',
  file: 'IMHEX_FILE',
  writable: 'IMHEX_WRITABLE',
  host: 'IMHEX_HOST',
  port: 'IMHEX_PORT',
  mcpCommand: 'IMHEX_MCP_COMMAND',
};

export type ProviderChoice =
  | { kind: 'file'; file: string }
  | { kind: 'imhex'; host: string; port: number; fileFallbackHint: boolean }
  | { kind: 'imhex-mcp' }
  /** auto without a file: the MCP Integration plugin if it answers, else stock ImHex. */
  | { kind: 'auto' }
  | { kind: 'none'; problem: string };

/**
 * Which provider the config asks for. `auto` uses the file when one is set (a file the user named
 * is never silently swapped for whatever ImHex has open), and otherwise looks for ImHex.
 */
export function chooseProvider(config: ImHexConfig): ProviderChoice {
  if (config.mode === 'imhex') return { kind: 'imhex', host: config.host, port: config.port, fileFallbackHint: false };
  if (config.mode === 'imhex-mcp') return { kind: 'imhex-mcp' };
  if (config.mode === 'auto' && !config.file) return { kind: 'auto' };
  if (!config.file) {
    return {
      kind: 'none',
      problem: 'plugins.imhex.mode is "file" but no file is set: set plugins.imhex.file (or IMHEX_FILE, or --file on mcphost call imhex)',
    };
  }
  return { kind: 'file', file: config.file };
}
