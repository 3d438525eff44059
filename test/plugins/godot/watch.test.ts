// plugins.godot.watch: a changed doc folder is re-indexed without a restart.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../src/kit/silent-logger.js';
import { GodotDocs } from '../../../plugins/godot/docs.ts';
import { tempDir } from '../../helpers/tmp.ts';
import { DOC4 } from './helpers.ts';

const tmp = tempDir('godot-watch-');
const docs: GodotDocs[] = [];
afterAll(() => docs.forEach((d) => d.close()));

function service(watch: boolean, onRebuilt = () => {}): GodotDocs {
  const root = path.join(tmp.dir, `doc-${docs.length}`);
  cpSync(DOC4, root, { recursive: true });
  const d = new GodotDocs(
    { docDir: root, indexPath: path.join(root, '../cache', `${docs.length}.json`), cacheDir: path.join(root, '../cache'), watch },
    silentLogger,
    onRebuilt,
  );
  docs.push(d);
  return d;
}

function addClass(root: string): void {
  const timer = readFileSync(path.join(DOC4, 'classes/Timer.xml'), 'utf8');
  writeFileSync(path.join(root, 'classes/Stopwatch.xml'), timer.replace('name="Timer"', 'name="Stopwatch"'));
}

describe('watch', () => {
  it('rebuilds the index when a class file is added, and tells the host', async () => {
    const rebuilt = vi.fn();
    const d = service(true, rebuilt);
    const before = await d.get();
    expect(before.classId('Stopwatch')).toBeUndefined();
    addClass(d.settings.docDir!);
    await vi.waitFor(() => expect(rebuilt).toHaveBeenCalled(), { timeout: 10_000, interval: 50 });
    const after = await d.get();
    expect(after.classes[after.classId('Stopwatch')!].name).toBe('Stopwatch');
  });

  it('keeps serving the loaded index when watch is off', async () => {
    const d = service(false);
    await d.get();
    addClass(d.settings.docDir!);
    await new Promise((r) => setTimeout(r, 600));
    expect((await d.get()).classId('Stopwatch')).toBeUndefined();
  });
});
