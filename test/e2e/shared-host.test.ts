// Issue 34's "Done when", through the real `mcphost serve --transport http` and the SDK client: two
// named clients driven concurrently, alice in the 2026 era (following tasks) and bot in the 2025 era
// (a session). Alice's task is, for bot, what an id that never existed is (tasks/get, tasks/update,
// tasks/cancel); bot's list lacks the tools outside its globs and a call of one is refused naming the
// rule; past its rate bot gets HTTP 429 with the retry-after error while alice is served; the audit
// file holds one line per outcome kind and no argument values, and `mcphost audit` reads it back.
// (The pinning part — a mounted server's tool rewritten after approval withheld until
// `mcphost trust --tools`, in flat and discover modes — is test/upstream/pinned-tools.test.ts.)
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { startHttp, type HttpServer } from '../helpers/mcp.js';
import { FIXTURES } from '../helpers/paths.js';
import { FOLLOWS_TASKS, TaskFollower, finished } from '../helpers/tasks.js';
import { tempDir } from '../helpers/tmp.js';
import { tokenHash } from '../../src/server/auth/client-tokens.js';

const ALICE = 'alice-token-from-the-environment';
const BOT = 'bot-token-only-its-hash-is-kept';
const SECRET_ARGUMENT = 'SECRET-ARGUMENT-VALUE-42';

const home = tempDir('mcphost-shared-').dir;
const work = path.join(home, 'work');
mkdirSync(work);
const auditFile = path.join(home, 'audit', 'audit.jsonl');
const userConfig = path.join(home, '.config', 'mcphost', 'config.yaml');
mkdirSync(path.dirname(userConfig), { recursive: true });
writeFileSync(
  userConfig,
  [
    'plugins:',
    '  shop:',
    `    module: ${path.join(FIXTURES, 'shared-host/index.js')}`,
    'http:',
    '  clients:',
    '    alice:',
    '      token: ${env:ALICE_TOKEN}',
    '    bot:',
    `      token: ${tokenHash(BOT)}`,
    '      tools:',
    "        allow: ['shop_*']",
    "        deny: ['shop_admin_*']",
    '      limits:',
    '        rate: { perMinute: 6, burst: 6 }',
    'audit:',
    `  file: ${auditFile}`,
    '',
  ].join('\n'),
);
const env = isolatedEnv(home, { ALICE_TOKEN: ALICE });

let server: HttpServer | undefined;
afterAll(() => server?.stop());

/** What a request was answered with when it failed: the JSON-RPC error (from a 429's body too) and the HTTP status. */
async function failure(work: Promise<unknown>): Promise<{ code?: number; message: string; data?: unknown; status?: number }> {
  try {
    await work;
  } catch (error) {
    const e = error as { code?: number; message: string; data?: { status?: number; text?: string } & Record<string, unknown> };
    if (e.data?.status !== undefined && e.data.text) {
      const body = JSON.parse(e.data.text) as { error: { code: number; message: string; data?: unknown } };
      return { ...body.error, status: e.data.status };
    }
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error('expected the request to fail');
}

describe('one mcphost shared by two named clients of the two eras', () => {
  it(
    'keeps their tasks apart, holds bot to its globs and rate while alice is served, and audits every outcome',
    { timeout: 120_000 },
    async () => {
      server = await startHttp([], { cwd: work, env });
      const alice = await server.connect('modern', { authorization: `Bearer ${ALICE}` }, { capabilities: FOLLOWS_TASKS });
      const bot = await server.connect('legacy', { authorization: `Bearer ${BOT}` });
      // Task requests exist only in the 2026 era: bot asks them over a connection of that era.
      const botModern = await server.connect('modern', { authorization: `Bearer ${BOT}` }, { capabilities: FOLLOWS_TASKS });
      const [aliceTasks, botTasks] = [new TaskFollower(alice), new TaskFollower(botModern)];

      const aliceSide = (async () => {
        const started = await aliceTasks.call('shop_report', { ms: 30_000, secret: SECRET_ARGUMENT });
        return started.task!.taskId;
      })();
      const botSide = (async () => {
        const names = (await bot.listTools()).tools.map((t) => t.name).sort();
        const refused = await failure(bot.callTool({ name: 'shop_admin_refund', arguments: { order: SECRET_ARGUMENT } }));
        return { names, refused };
      })();
      const [taskId, { names, refused }] = await Promise.all([aliceSide, botSide]);

      expect(names).toEqual(['shop_broken', 'shop_picky', 'shop_report', 'shop_search', 'shop_warehouse']);
      expect(refused.code).toBe(-32003);
      expect(refused.message).toMatch(
        /client bot may not use tool shop_admin_refund: denied by http\.clients\.bot\.tools\.deny "shop_admin_\*"/,
      );

      // Alice's task, for bot: exactly what an id that never existed is.
      const never = crypto.randomUUID();
      const requests: Array<(id: string) => Promise<unknown>> = [
        (id) => botTasks.get(id),
        (id) => botModern.request({ method: 'tasks/update', params: { taskId: id, inputResponses: {} } }, z.looseObject({})),
        (id) => botTasks.cancel(id),
      ];
      for (const request of requests) {
        const [theirs, none] = [await failure(request(taskId)), await failure(request(never))];
        expect(theirs).toEqual({
          ...none,
          message: none.message.replace(never, taskId),
          data: JSON.parse(JSON.stringify(none.data).replace(never, taskId)),
        });
      }
      expect((await aliceTasks.get(taskId)).status).toBe('working');

      // Bot spends its burst of 6 on every way a call can end, then is refused; alice is served throughout.
      const botCalls = (async () => {
        const answers = [];
        for (const name of ['shop_search', 'shop_broken', 'shop_picky', 'shop_warehouse', 'shop_search', 'shop_search']) {
          answers.push(
            await failure(bot.callTool({ name, arguments: name === 'shop_search' ? { q: SECRET_ARGUMENT } : {} })).catch(() => 'answered'),
          );
        }
        return { answers, past: await failure(bot.callTool({ name: 'shop_search', arguments: { q: 'one more' } })) };
      })().catch((error: Error) => ({ answers: [], past: { message: error.message } as Awaited<ReturnType<typeof failure>> }));
      const aliceCalls = Promise.all(
        Array.from({ length: 8 }, (_, i) => alice.callTool({ name: 'shop_search', arguments: { q: `alice ${i}` } })),
      );
      const [{ past }, served] = await Promise.all([botCalls, aliceCalls]);
      expect(past).toMatchObject({ status: 429, code: -32029, data: { client: 'bot', tool: 'shop_search', retryAfter: 10 } });
      expect(past.message).toBe('client bot is past http.clients.bot.limits.rate (6/min, burst 6) for shop_search: retry after 10 s');
      expect(served.map((r) => (r.content as Array<{ text: string }>)[0].text)).toEqual(
        Array.from({ length: 8 }, (_, i) => `found alice ${i}`),
      );
      const after = await alice.callTool({ name: 'shop_search', arguments: { q: 'still served' } });
      expect((after.content as Array<{ text: string }>)[0].text).toBe('found still served');

      await aliceTasks.cancel(taskId);
      expect((await aliceTasks.poll(taskId, finished)).status).toBe('cancelled');
      await server.stop();
      server = undefined;

      const files = readdirSync(path.dirname(auditFile));
      expect(files).toEqual(['audit.1.jsonl']);
      const text = readFileSync(path.join(path.dirname(auditFile), files[0]), 'utf8');
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { client: string; era: string; tool: string; outcome: string; session?: string });
      const byOutcome = (outcome: string) => lines.filter((l) => l.outcome === outcome);
      expect(byOutcome('policy')).toEqual([expect.objectContaining({ client: 'bot', era: 'legacy', tool: 'shop_admin_refund' })]);
      expect(byOutcome('limit')).toEqual([expect.objectContaining({ client: 'bot', tool: 'shop_search' })]);
      expect(byOutcome('tool_error').map((l) => l.tool)).toEqual(['shop_broken']);
      expect(byOutcome('jsonrpc').map((l) => l.tool)).toEqual(['shop_picky']);
      // The warehouse was closed; alice's task was cancelled.
      expect(
        byOutcome('transport')
          .map((l) => l.tool)
          .sort(),
      ).toEqual(['shop_report', 'shop_warehouse']);
      expect(byOutcome('success').length).toBe(3 + 9);
      expect(lines.filter((l) => l.client === 'bot' && l.era === 'legacy').every((l) => typeof l.session === 'string')).toBe(true);
      expect(text).not.toContain(SECRET_ARGUMENT);
      expect(text).not.toContain(ALICE);

      const read = await runCli(['audit', '--client', 'bot', '--outcome', 'limit', '--json'], { cwd: work, env });
      expect(JSON.parse(read.stdout).entries).toEqual([expect.objectContaining({ client: 'bot', tool: 'shop_search', outcome: 'limit' })]);
    },
  );
});
