// The godot backend: Godot's class reference, offline, from its own doc XML (or the --doctool dump
// of the user's engine). Search, classes, symbols, class list, API check; class/symbol/search
// resources; a prompt that teaches the lookup workflow.
import { defineBackend, type Backend, type BackendContext } from '../../src/backend/index.js';
import { configEnv, configSchema, normalizeConfig, type GodotConfig } from './config.js';
import { GodotDocs } from './docs.js';
import { godotPrompts } from './surface/prompt.js';
import { godotResources } from './surface/resources.js';
import { godotTools, type IndexFor } from './surface/tools.js';

export default function createGodotBackend(): Backend<GodotConfig> {
  let docs: GodotDocs | undefined;
  let docsConfig: GodotConfig | undefined;
  const docsFor = (ctx: BackendContext<GodotConfig>): GodotDocs => {
    if (!docs || docsConfig !== ctx.config) {
      docs?.close();
      docs = new GodotDocs(normalizeConfig(ctx.config, ctx.configDir, ctx.cacheDir, ctx.withheld), ctx.logger, () =>
        ctx.notifyListChanged('resources'),
      );
      docsConfig = ctx.config;
    }
    return docs;
  };
  const indexFor: IndexFor = (ctx) => docsFor(ctx).get({ progress: ctx.progress });

  return defineBackend<GodotConfig>({
    name: 'godot',
    version: '0.1.0',
    description: 'Godot Engine class reference, offline: search, classes, members, API checks for GDScript',
    configSchema,
    env: configEnv,
    tools: godotTools(indexFor),
    resourceTemplates: godotResources(indexFor, (ctx) => docsFor(ctx).quickClassNames()),
    prompts: godotPrompts(),
    async start(ctx) {
      // Fail fast on a doc folder without class XML (or a Godot binary that does not run). The
      // index itself is loaded by the first call that needs it, which then gets progress reports.
      const info = await docsFor(ctx).check(ctx.signal);
      ctx.logger.debug(`serving the Godot reference from ${info.docDir}`);
    },
    stop() {
      docs?.close();
      docs = undefined;
      docsConfig = undefined;
    },
    async health(ctx) {
      const service = docsFor(ctx);
      try {
        const info = await service.check(ctx.signal);
        const index = service.loaded;
        const state = index ? `${index.classes.length} classes, ${index.docs.length} symbols indexed` : 'index loads on first use';
        const warnings = index?.warnings.length ? `; ${index.warnings.length} class file(s) skipped (see the log)` : '';
        return {
          ok: true,
          message: `${info.files} class files in ${info.docDir}${info.godotVersion ? ` (Godot ${info.godotVersion})` : ''}: ${state}${warnings}`,
          detail: { ...info, indexPath: service.settings.indexPath, watch: service.settings.watch, warnings: index?.warnings ?? [] },
        };
      } catch (error) {
        return { ok: false, message: (error as Error).message, detail: { indexPath: service.settings.indexPath } };
      }
    },
  });
}
