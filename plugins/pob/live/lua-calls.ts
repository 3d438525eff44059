// How a pob_lua_* tool call reaches the workers: which build it works on (the build_id it names,
// or the build this client loaded or changed last, kept per client in ctx.client.state), and what
// it answers (a call that changes the build answers the new build_id, which becomes the client's).
import path from 'node:path';
import * as z from 'zod';
import { ToolError, type CallContext, type ClientInfo } from '../../../src/backend/index.js';
import { readBuildText } from '../build/build-input.js';
import type { PobConfig } from '../config.js';
import { checkBuildXml } from '../build/parse-job.js';
import type { PobPool } from './pool.js';
import { BUILD_ID, normalizeXml } from './store.js';
import type { PobWorker } from './worker.js';

export const buildIdInput = z
  .string()
  .regex(BUILD_ID, 'a build_id as pob_lua_load_build answers it (32 hex digits)')
  .optional()
  .describe(
    'the build to work on, as pob_lua_load_build or an edit answered it; default: the build this client loaded or changed last (pass it when every call is a new client: 2026-era HTTP, `mcphost call --url`)',
  );

/** What a client remembers between its calls. */
interface ClientBuild {
  id?: string;
  /** Why the client's last load failed, for the next NO_BUILD answer. */
  failed?: string;
}

export const clientBuild = (client: ClientInfo): ClientBuild => client.state<ClientBuild>('build', () => ({}));

export type LuaContext = Pick<CallContext<PobConfig>, 'client' | 'signal' | 'progress' | 'files'>;

/** The build a call works on, or a NO_BUILD error that says how to get one. */
export function resolveBuild(pool: PobPool, ctx: LuaContext, given: string | undefined, tool: string): string | undefined {
  if (!pool.buildsAsValues) {
    if (given === undefined) return undefined;
    throw new ToolError(
      `build_id: over a PoB GUI (plugins.pob.tcp) ${tool} works on the build open in PoB, shared by everyone connected to it; leave build_id out, or unset plugins.pob.tcp (POB_API_TCP) to run PoB workers that take build_ids`,
      { code: 'INVALID_ARGUMENT' },
    );
  }
  if (given !== undefined) return given;
  const mine = clientBuild(ctx.client);
  if (mine.id) return mine.id;
  // A PoB that cannot run is the first thing to fix: say that rather than "load a build".
  pool.checkSetup();
  const why = mine.failed ? ` (this client's last load failed: ${mine.failed})` : '';
  throw new ToolError(
    `no build is loaded: load one first with pob_lua_load_build${why}; it answers a build_id, which a call passes as build_id (\`--build-id\` on \`mcphost call --url\`) when every call is a new client`,
    { code: 'NO_BUILD' },
  );
}

/** Runs one action on the call's build; an action that changes it answers the new build_id. */
export async function onBuild(
  pool: PobPool,
  ctx: LuaContext,
  tool: string,
  request: { build_id?: string; mutates?: boolean; run(worker: PobWorker): Promise<unknown> },
): Promise<unknown> {
  const build = resolveBuild(pool, ctx, request.build_id, tool);
  const answer = await pool.run({
    client: ctx.client.caller,
    tool,
    build,
    mutates: request.mutates,
    signal: ctx.signal,
    progress: ctx.progress,
    run: request.run,
  });
  if (!request.mutates || answer.buildId === undefined) return answer.value;
  clientBuild(ctx.client).id = answer.buildId;
  return { ...(answer.value as object), build_id: answer.buildId };
}

/**
 * Loads build XML (stored first, so every worker and host sharing the store can load it again)
 * and makes it the client's build; `then` runs on the same worker right after. A failed load
 * leaves the client without a build, as PoB itself is left.
 */
export async function loadBuild<T>(
  pool: PobPool,
  ctx: LuaContext,
  tool: string,
  build: { xml: string; name?: string },
  then?: (worker: PobWorker) => Promise<T>,
): Promise<{ value: T; buildId?: string }> {
  const xml = normalizeXml(build.xml);
  const mine = clientBuild(ctx.client);
  mine.id = undefined;
  try {
    const id = pool.buildsAsValues ? await pool.store.put(xml) : '';
    const answer = await pool.run({
      client: ctx.client.caller,
      tool,
      load: { id, xml, name: build.name },
      signal: ctx.signal,
      progress: ctx.progress,
      run: then,
    });
    mine.failed = undefined;
    if (!pool.buildsAsValues) return { value: answer.value };
    mine.id = id;
    return { value: answer.value, buildId: id };
  } catch (error) {
    mine.failed = (error as Error).message.split('\n')[0].slice(0, 300);
    throw error;
  }
}

/** pob_lua_load_build: XML, a share code or a file (stored, then loaded), or a stored build by id. */
export async function loadTool(
  pool: PobPool,
  ctx: LuaContext,
  args: { build_xml?: string; code?: string; build_id?: string; name?: string },
): Promise<unknown> {
  const tool = 'pob_lua_load_build';
  const { build_xml, code, build_id, name } = args;
  if (build_id !== undefined) {
    resolveBuild(pool, ctx, build_id, tool);
    const info = await onBuild(pool, ctx, tool, { build_id, run: (w) => w.call('get_build_info', {}, tool) });
    Object.assign(clientBuild(ctx.client), { id: build_id, failed: undefined });
    return { ...(info as object), build_id };
  }
  const field = build_xml !== undefined ? 'build_xml' : 'code';
  const text = await readBuildText((build_xml ?? code)!, field, ctx.files);
  await checkBuildXml(text.xml, field, ctx.signal);
  const label = name ?? (text.file ? path.basename(text.file).replace(/\.[^.]*$/, '') : undefined);
  const { value, buildId } = await loadBuild(pool, ctx, tool, { xml: text.xml, name: label });
  return buildId === undefined ? value : { ...(value as object), build_id: buildId };
}
