// plugins.godot in .mcprc: where the class XML is (or which Godot binary dumps it), where the
// index is cached, and whether to rebuild when the XML changes.
import { createHash } from 'node:crypto';
import path from 'node:path';
import * as z from 'zod';
import { configPath, programPath, type WithheldSetting } from '../../src/backend/index.js';

const DEFAULT_DOC_DIR = './doc';

export const configSchema = z.object({
  docDir: configPath()
    .optional()
    .describe("folder with Godot's class XML: classes/*.xml and modules/*/doc_classes/*.xml (env GODOT_DOC_DIR; default ./doc)"),
  godotBinary: programPath()
    .optional()
    .describe('Godot executable (a command on PATH or a path); when docDir is not set, its --doctool dump is served'),
  indexPath: configPath()
    .optional()
    .describe("where the search index is saved (env GODOT_INDEX_PATH; default: the user's cache directory, one index per doc folder)"),
  manualDir: configPath()
    .optional()
    .describe(
      'a godot-docs checkout (its .rst pages) whose words about the API join the index (env GODOT_MANUAL_DIR; default: the manual excerpt shipped with the plugin)',
    ),
  watch: z.boolean().default(false).describe('rebuild the index when the XML changes'),
});

export type GodotConfig = z.output<typeof configSchema>;

export const configEnv = { docDir: 'GODOT_DOC_DIR', indexPath: 'GODOT_INDEX_PATH', manualDir: 'GODOT_MANUAL_DIR' };

/** The config with paths made absolute and the doc source decided. */
export interface Settings {
  /** The folder to read, or undefined when the docs come from `godotBinary --doctool`. */
  docDir?: string;
  godotBinary?: string;
  indexPath: string;
  /** The plugin's cache folder, where --doctool dumps are kept. */
  cacheDir: string;
  /** A godot-docs checkout to read the manual from; undefined: the shipped data/manual-anchors.tsv. */
  manualDir?: string;
  watch: boolean;
  /** Settings of a file not yet approved (godotBinary): docs that need one say what to approve. */
  withheld?: readonly WithheldSetting[];
}

/**
 * The default index file: in the plugin's cache folder, one per doc source, so the index built from
 * one working directory is found from any other and two doc folders do not overwrite each other.
 * `<cacheDir>/index/<folder name>-<hash of the absolute path>/godot-index.json`.
 */
export function defaultIndexPath(cacheDir: string, source: string): string {
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const name =
    path
      .basename(source)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'doc';
  return path.join(cacheDir, 'index', `${name}-${hash}`, 'godot-index.json');
}

export function normalizeConfig(
  config: GodotConfig,
  configDir: string,
  cacheDir: string,
  withheld: readonly WithheldSetting[] = [],
): Settings {
  // Paths the user wrote were made absolute by the host (against the config file's folder, or the
  // working directory for env and flags). docDir has no schema default so that "not configured" is
  // visible: that is when godotBinary is used; otherwise ./doc, beside the config file. A
  // godotBinary waiting for approval still means "not the ./doc folder": the docs say what to approve.
  const binaryAsked = config.godotBinary !== undefined || withheld.some((w) => w.key === 'godotBinary');
  const binary = config.godotBinary && /[/\\]/.test(config.godotBinary) ? path.resolve(configDir, config.godotBinary) : config.godotBinary;
  const docDir = config.docDir ?? (binaryAsked ? undefined : path.resolve(configDir, DEFAULT_DOC_DIR));
  const source = docDir ?? `godot-binary:${binary}`;
  return {
    docDir,
    godotBinary: binary,
    indexPath: config.indexPath ? path.resolve(configDir, config.indexPath) : defaultIndexPath(cacheDir, source),
    cacheDir,
    manualDir: config.manualDir ? path.resolve(configDir, config.manualDir) : undefined,
    watch: config.watch,
    withheld,
  };
}
