// plugins.godot in .mcprc: where the class XML is (or which Godot binary dumps it), where the
// index is cached, and whether to rebuild when the XML changes.
import path from 'node:path';
import * as z from 'zod';
import { configPath } from '../../src/backend/index.js';

export const DEFAULT_DOC_DIR = './doc';
export const DEFAULT_INDEX_PATH = './.cache/godot-index.json';

export const configSchema = z.object({
  docDir: configPath()
    .optional()
    .describe("folder with Godot's class XML: classes/*.xml and modules/*/doc_classes/*.xml (env GODOT_DOC_DIR; default ./doc)"),
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

export function normalizeConfig(config: GodotConfig, configDir = process.cwd()): Settings {
  // Paths the user wrote were made absolute by the host (against the config file's folder, or the
  // working directory for env and flags). docDir has no schema default so that "not configured" is
  // visible: that is when godotBinary is used; otherwise ./doc, beside the config file.
  const indexPath = path.resolve(configDir, config.indexPath);
  const binary = config.godotBinary && /[/\\]/.test(config.godotBinary) ? path.resolve(configDir, config.godotBinary) : config.godotBinary;
  return {
    docDir: config.docDir ?? (config.godotBinary ? undefined : path.resolve(configDir, DEFAULT_DOC_DIR)),
    godotBinary: binary,
    indexPath,
    cacheDir: path.dirname(indexPath),
    watch: config.watch,
  };
}
