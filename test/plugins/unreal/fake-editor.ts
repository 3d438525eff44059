// Starts the fake Unreal Editor (test/fixtures/unreal/editor.mjs) as a real process on 127.0.0.1.
import path from 'node:path';
import type { ResultPromise } from 'execa';
import { startFixtureServer } from '../../helpers/fixture-server.js';
import { FIXTURES } from '../../helpers/paths.js';

export const EDITOR = path.join(FIXTURES, 'unreal/editor.mjs');
/** The replica of the released UnrealMCPServer plugin (see its header). */
export const REPLICA = path.join(FIXTURES, 'unreal/unreal-mcp-server.mjs');
/** The replica of Epic's Unreal MCP in UE 5.8 (see its header). */
export const EPIC = path.join(FIXTURES, 'unreal/epic-mcp-server.mjs');

export interface FakeEditor {
  port: number;
  url: string;
  child: ResultPromise;
  stop(): Promise<void>;
}

export interface EditorOptions {
  port?: number;
  journal?: string;
  /** The seed fake only: /mcp without resources (they are on /-/). */
  mcpResources?: boolean;
  /** The seed fake only: answer tools/call with this HTTP status. */
  failCalls?: number;
  /** The replica only: how long request_editor_compile holds the game thread. */
  compileMs?: number;
}

/** The seed-based fake editor (default) or the replica of the released plugin (`real: true`). */
export async function startEditor(options: EditorOptions & { real?: boolean } = {}): Promise<FakeEditor> {
  const args = ['--port', String(options.port ?? 0)];
  if (options.journal) args.push('--journal', options.journal);
  if (options.mcpResources === false) args.push('--no-mcp-resources');
  if (options.failCalls) args.push('--fail-calls', String(options.failCalls));
  if (options.compileMs !== undefined) args.push('--compile-ms', String(options.compileMs));
  const server = await startFixtureServer(options.real ? REPLICA : EDITOR, args, options.real ? 'UnrealMCPServer replica' : 'fake editor');
  return { ...server, url: `http://127.0.0.1:${server.port}` };
}

export interface EpicOptions {
  port?: number;
  journal?: string;
  /** Milliseconds between two toolsets registering (the replica's default 200). */
  registerMs?: number;
  /** How long each tool call holds the game thread (default 10). */
  callMs?: number;
  /** bEnableToolSearch=False: every tool listed natively. */
  noToolSearch?: boolean;
}

/** The replica of Epic's Unreal MCP as a real process; `url` is its MCP endpoint. */
export async function startEpic(options: EpicOptions = {}): Promise<FakeEditor> {
  const args = ['--port', String(options.port ?? 0)];
  if (options.journal) args.push('--journal', options.journal);
  if (options.registerMs !== undefined) args.push('--register-ms', String(options.registerMs));
  if (options.callMs !== undefined) args.push('--call-ms', String(options.callMs));
  if (options.noToolSearch) args.push('--no-tool-search');
  const server = await startFixtureServer(EPIC, args, 'Epic Unreal MCP replica');
  return { ...server, url: `http://127.0.0.1:${server.port}/mcp` };
}
