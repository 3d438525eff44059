// Small helpers for the upstream tests: polling, free ports, process liveness, .mcprc files.
import { createServer } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Client, Tool } from '@modelcontextprotocol/client';
import { REPO } from '../helpers/paths.js';
import { alive } from '../helpers/process.js';
import { isolatedEnv } from '../helpers/cli.js';
import { approveFile } from '../../src/app/trust.js';

export const FIXTURE_SERVER = path.join(REPO, 'test/upstream/fixtures/server.mjs');
export const EVERYTHING = path.join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** Polls `check` until it returns a truthy value (or stops throwing); fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export { alive };

/**
 * Waits until every named tool is listed: a mounted server connects in the background and its
 * tools appear once it answers (tools/list_changed), so a fresh session lists them a moment later.
 */
export async function whenListed(client: Client, names: string[]): Promise<Tool[]> {
  return waitFor(
    async () => {
      const { tools } = await client.listTools();
      return names.every((n) => tools.some((t) => t.name === n)) ? tools : undefined;
    },
    `${names.join(', ')} to be listed`,
  );
}

/**
 * Writes `.mcprc.json` and approves it, as its user would (`mcphost trust`) before it may start its
 * servers; the record goes to `dir`, the HOME the in-process host is given by default.
 */
export function writeConfig(dir: string, config: unknown): string {
  const file = path.join(dir, '.mcprc.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  approveFile(file, isolatedEnv(dir) as NodeJS.ProcessEnv);
  return file;
}

export function journalLines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** A `servers` entry that runs the fixture server over stdio. */
export function fixtureEntry(journal: string, extra: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  return { command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_JOURNAL: journal, ...env }, ...extra };
}

export function textOf(result: { content?: unknown }): string {
  return ((result.content as Array<{ type: string; text?: string }>) ?? []).map((c) => c.text ?? '').join('\n');
}
