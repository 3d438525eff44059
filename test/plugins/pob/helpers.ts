// Shared by the pob tests: the fake PoB, small build XML for it, and an MCP session on the host
// with the pob plugin (in-process by default; `binary: true` runs the real `mcphost serve`), the
// pob settings given as environment variables.
import path from 'node:path';
import { expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectStdio, type StdioSession } from '../../helpers/mcp.js';
import { serveInProcess, type InProcessSession } from '../../helpers/in-process.js';
import { isolatedEnv } from '../../helpers/cli.js';
import { FIXTURES } from '../../helpers/paths.js';
import { alive } from '../../helpers/process.js';

export const FAKE_POB = path.join(FIXTURES, 'pob/fake-pob');

/** A build the fake PoB understands. Its Life is 38 + 12·level + 10 per node 1..400. */
export function fakeBuild(
  options: { level?: number; nodes?: number[]; masteries?: string; fake?: string; classId?: number; ascendClassId?: number } = {},
): string {
  const { level = 90, nodes = [1, 2, 3, 401, 500], masteries = '{500,9500}', fake, classId = 3, ascendClassId = 1 } = options;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<PathOfBuilding>',
    `\t<Build level="${level}" className="Witch" ascendClassName="Occultist" mainSocketGroup="1" targetVersion="3_0"${fake ? ` fake="${fake}"` : ''}>`,
    '\t</Build>',
    `\t<Tree activeSpec="1"><Spec treeVersion="3_26" classId="${classId}" ascendClassId="${ascendClassId}" nodes="${nodes.join(',')}" masteryEffects="${masteries}"/></Tree>`,
    '\t<Skills activeSkillSet="1"><SkillSet id="1"><Skill label="main" enabled="true"><Gem nameSpec="Fake Bolt" skillId="FakeBolt" level="20" quality="20" enabled="true"/></Skill></SkillSet></Skills>',
    '</PathOfBuilding>',
  ].join('\n');
}

export interface PobSession {
  client: Client;
  /** The `mcphost serve` child, when the session runs the real binary. */
  transport?: StdioSession['transport'];
  /** The host's registry, when the session runs in-process. */
  registry?: InProcessSession['registry'];
  close(): Promise<void>;
  /** Calls a tool and returns the raw result. */
  tool(name: string, args?: Record<string, unknown>): Promise<ToolResultLike>;
  /** Calls a tool that must succeed; returns its structured content (or text). */
  ok(name: string, args?: Record<string, unknown>): Promise<any>;
  /** Calls a tool that must fail; returns the error's code, message and data. */
  fails(name: string, args?: Record<string, unknown>): Promise<{ code?: string; message: string; data?: any }>;
}

export interface ToolResultLike {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
}

/** An isolated environment without the developer's own POB_* settings, plus `extra`. */
export function pobEnv(cwd: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env = isolatedEnv(cwd);
  for (const key of Object.keys(env)) if (key.startsWith('POB_') || key.startsWith('FAKE_POB_')) delete env[key];
  return { ...env, ...extra };
}

export async function pobSession(
  cwd: string,
  env: Record<string, string | undefined>,
  options: { binary?: boolean } = {},
): Promise<PobSession> {
  const session = options.binary
    ? await connectStdio(['--plugins', 'pob'], { cwd, env: pobEnv(cwd, env) })
    : await serveInProcess({ cwd, plugins: ['pob'], env: pobEnv(cwd, env) });
  const tool = async (name: string, args: Record<string, unknown> = {}) =>
    (await session.client.callTool({ name, arguments: args })) as ToolResultLike;
  return {
    client: session.client,
    transport: 'transport' in session ? session.transport : undefined,
    registry: 'registry' in session ? session.registry : undefined,
    close: () => session.close(),
    tool,
    async ok(name, args) {
      const result = await tool(name, args);
      if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
      return result.structuredContent ?? result.content[0]?.text;
    },
    async fails(name, args) {
      const result = await tool(name, args);
      expect(result.isError, `${name} should fail`).toBe(true);
      const error = result._meta?.['mcphost/error'] ?? {};
      return { code: error.code, message: result.content[0]?.text ?? '', data: error.data };
    },
  };
}

export { alive };

/** Waits (up to ~5 s) for a process to be gone. */
export async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 250 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  return !alive(pid);
}
