// plugins.godot.watch: calls back (debounced) when a class file in any XML folder changes.
import { watch, type FSWatcher } from 'node:fs';
import type { Logger } from '../../../src/backend/index.js';

export function watchXml(dirs: string[], onChange: () => void, logger: Logger, debounceMs = 300): () => void {
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  };
  const watchers: FSWatcher[] = [];
  for (const dir of dirs) {
    try {
      const w = watch(dir, { persistent: false }, (_event, file) => {
        if (!file || String(file).endsWith('.xml')) fire();
      });
      w.on('error', (error) => logger.warn(`watching ${dir} failed: ${error.message}`));
      watchers.push(w);
    } catch (error) {
      logger.warn(`cannot watch ${dir}: ${(error as Error).message}`);
    }
  }
  return () => {
    clearTimeout(timer);
    for (const w of watchers) w.close();
  };
}
