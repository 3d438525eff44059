// `mcphost serve` keeps its configuration live: the files it read are watched, and each change is
// reloaded (reload.ts), one at a time; after each reload the set of watched files follows the
// configuration in force (a client's file that is imported now, or no more).
import type { Logger } from '../backend/types.js';
import path from 'node:path';
import { pinsFile } from '../config/tool-pins.js';
import { watchFiles } from '../config/watch.js';
import type { Registry } from '../registry/registry.js';
import type { OpenOptions } from './open.js';
import { createReloader, type ReloadState } from './reload.js';

export function watchConfig(options: OpenOptions, registry: Registry, state: ReloadState, logger: Logger): { close(): void } {
  const reloader = createReloader(options, registry, state, logger);
  const pins = path.resolve(pinsFile(options.env));
  const watch = watchFiles(
    (files) => {
      // The pinned tools changed (`mcphost trust --tools`): the mounted servers' tools are compared
      // again when clients list them next, which they are told to do; nothing restarts.
      if (files.includes(pins)) registry.notifyListChanged('tools');
      const others = files.filter((f) => f !== pins);
      if (others.length === 0) return;
      void reloader.reload(`${others.join(', ')} changed`).finally(() => watch.set(reloader.files()));
    },
    { onError: (error) => logger.debug(`config watch: ${error.message}`) },
  );
  watch.set(reloader.files());
  logger.debug(`watching ${reloader.files().join(', ')}`);
  return { close: () => watch.close() };
}
