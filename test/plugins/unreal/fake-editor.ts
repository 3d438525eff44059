// Starts the fake Unreal Editor (test/fixtures/unreal/editor.mjs) as a real process on 127.0.0.1.
import path from 'node:path';
import type { ResultPromise } from 'execa';
import { startFixtureServer } from '../../helpers/fixture-server.js';
import { FIXTURES } from '../../helpers/paths.js';

export const EDITOR = path.join(FIXTURES, 'unreal/editor.mjs');

export interface FakeEditor {
  port: number;
  url: string;
  child: ResultPromise;
  stop(): Promise<void>;
}

export async function startEditor(options: { port?: number; journal?: string; mcpResources?: boolean } = {}): Promise<FakeEditor> {
  const args = ['--port', String(options.port ?? 0)];
  if (options.journal) args.push('--journal', options.journal);
  if (options.mcpResources === false) args.push('--no-mcp-resources');
  const server = await startFixtureServer(EDITOR, args, 'fake editor');
  return { ...server, url: `http://127.0.0.1:${server.port}` };
}
