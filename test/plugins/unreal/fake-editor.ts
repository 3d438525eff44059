// Starts the fake Unreal Editor (test/fixtures/unreal/editor.mjs) as a real process on 127.0.0.1.
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { FIXTURES } from '../../helpers/paths.js';

export const EDITOR = path.join(FIXTURES, 'unreal/editor.mjs');

export interface FakeEditor {
  port: number;
  url: string;
  child: ResultPromise;
  stop(): Promise<void>;
}

export async function startEditor(options: { port?: number; journal?: string; mcpResources?: boolean } = {}): Promise<FakeEditor> {
  const args = [EDITOR, '--port', String(options.port ?? 0)];
  if (options.journal) args.push('--journal', options.journal);
  if (options.mcpResources === false) args.push('--no-mcp-resources');
  const child = execa(process.execPath, args, { reject: false, stdin: 'ignore' });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    void child.then((r) => reject(new Error(`fake editor exited (${r.exitCode}): ${r.stderr}`)));
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await child;
    },
  };
}
