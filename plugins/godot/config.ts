// plugins.godot in .mcprc: where the class XML is (or which Godot binary dumps it), where the
// index is cached, and whether to rebuild when the XML changes.
import path from 'node:path';
import * as z from 'zod';
import { configPath } from '../../src/backend/index.js';

export const DEFAULT_DOC_DIR = './doc';
export const DEFAULT_INDEX_PATH = './.cache/godot-index.json';

export const configSchema = z.object({
  docDir: configPath()
    .default(DEFAULT_DOC_DIR)
    .describe("folder with Godot's class XML: classes/*.xml and modules/*/doc_classes/*.xml (env GODOT_DOC_DIR)"),
  godotBinary: z
    .string()
    .min(1)
    .optional()
    .describe('Godot executable (a command on PATH or a path); when docDir is not set, its --doctool dump is served'),
  indexPath: configPath().default(DEFAULT_INDEX_PATH).describe('where the search index is cached; --doctool dumps go beside it'),
  watch: z.boolean().default(false).describe('rebuild the index when the XML changes'),
});

export type GodotConfig = z.output<typeof configSchema>;

export const configEnv = { docDir: 'GODOT_DOC_DIR' };

/** The config with paths made absolute and the doc source decided. */
export interface Settings {
  /** The folder to read, or undefined when the docs come from `godotBinary --doctool`. */
  docDir?: string;
  godotBinary?: string;
  indexPath: string;
  /** Folder of the index, where --doctool dumps are cached too. */
  cacheDir: string;
  watch: boolean;
}

export function normalizeConfig(config: GodotConfig, cwd = process.cwd()): Settings {
  // Paths the user wrote were made absolute by the host (against the config file's folder, or the
  // working directory for env and flags); the defaults are relative to the working directory. So
  // the literal default means "docDir not configured", which is when godotBinary is used.
  const docDirSet = config.docDir !== DEFAULT_DOC_DIR;
  const indexPath = path.resolve(cwd, config.indexPath);
  const binary = config.godotBinary && /[/\\]/.test(config.godotBinary) ? path.resolve(cwd, config.godotBinary) : config.godotBinary;
  return {
    docDir: config.godotBinary && !docDirSet ? undefined : path.resolve(cwd, config.docDir),
    godotBinary: binary,
    indexPath,
    cacheDir: path.dirname(indexPath),
    watch: config.watch,
  };
}
