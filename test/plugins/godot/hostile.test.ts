// Hostile input to the godot tools (issue: one request must not stall the others, and every request
// is answered within its budget): a 176 KB script for godot_check_api, scripts built to be slow
// (unclosed brackets, thousands of unknown names), scripts over the size cap, and search queries of
// hundreds of distinct words or names.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../helpers/cli.ts';
import { callInProcess, serveInProcess, type InProcessSession } from '../../helpers/in-process.ts';
import { tempDir } from '../../helpers/tmp.ts';
import type { DocIndex } from '../../../plugins/godot/search-index/doc-index.ts';
import { codeResults, MAX_RESULTS } from '../../../plugins/godot/lookup/check-api.ts';
import { MAX_FUZZY_WORDS } from '../../../plugins/godot/lookup/lexicon.ts';
import { identifiersOf, MAX_IDENTIFIERS, MAX_QUERY_TERMS, planQuery } from '../../../plugins/godot/lookup/query.ts';
import { parseVocabulary, shippedVocabulary, Vocabulary } from '../../../plugins/godot/lookup/vocabulary.ts';
import { terms } from '../../../plugins/godot/search-index/tokenize.ts';
import { RANKING } from '../../../plugins/godot/lookup/params.ts';
import { MAX_CODE } from '../../../plugins/godot/surface/tools.ts';
import { DOC4, fixtureIndex } from './helpers.ts';

type ToolResult = {
  isError?: boolean;
  content: Array<{ text?: string }>;
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
};

const SCRIPT = `extends CharacterBody2D
var speed: float = 200.0
@onready var sprite: Sprite2D = $Sprite2D
func _physics_process(delta):
\tvelocity = Vector2(1, 0) * speed
\tmove_and_slide()
\tif is_on_floor():
\t\tsprite.flip_h = velocity.x < 0
\tvar t := Timer.new()
\tadd_child(t)
\tt.start(1.0)
\tKinematicBody2D.move_and_slide(velocity)
\tfoo_bar_baz(1, 2)
`;
/** The size of script that blocked every other client for 7 s. */
const BIG = SCRIPT.repeat(Math.ceil(176_000 / SCRIPT.length));
/** Thousands of distinct unknown names: far more work than a 50 ms budget, however fast the machine. */
const UNKNOWN = `extends Node\n${Array.from({ length: 8000 }, (_, i) => `\tmissing_${i}(1)\n`).join('')}`;

const tmp = tempDir('godot-hostile-');
const env = isolatedEnv(tmp.dir, { GODOT_DOC_DIR: DOC4 });
let session: InProcessSession;
let index: DocIndex;
beforeAll(async () => {
  session = await serveInProcess({ cwd: tmp.dir, plugins: ['godot'], env });
  await session.client.callTool({ name: 'godot_list_classes', arguments: { limit: 1 } });
  index = await fixtureIndex(DOC4);
});
afterAll(async () => {
  await session?.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await session.client.callTool({ name, arguments: args })) as ToolResult;

describe('godot_check_api with hostile code', () => {
  it('answers other requests while it checks a 176 KB script, then answers that too', async () => {
    const order: string[] = [];
    const big = call('godot_check_api', { code: BIG }).then((r) => (order.push('check_api'), r));
    const small = call('godot_search', { query: 'timer' }).then((r) => (order.push('search'), r));
    const [report] = await Promise.all([big, small]);
    expect(order).toEqual(['search', 'check_api']);
    expect(report.structuredContent).toMatchObject({ ok: false, truncated: { shown: MAX_RESULTS } });
    expect(report.structuredContent!.results.some((r: { problem?: string }) => /renamed to CharacterBody2D/.test(r.problem ?? ''))).toBe(
      true,
    );
  });

  it('stops when the call times out, and says so', async () => {
    const outcome = await callInProcess({ cwd: tmp.dir, env, plugin: 'godot', tool: 'check_api', args: { code: UNKNOWN }, timeoutMs: 50 });
    expect(outcome.error).toMatchObject({ kind: 'timeout', code: 'TIMEOUT' });
  });

  it('gives up its work when the signal aborts (cancellation or timeout)', async () => {
    const controller = new AbortController();
    const work = codeResults(index, BIG, controller.signal);
    setImmediate(() => controller.abort(new Error('cancelled by the client')));
    await expect(work).rejects.toThrow('cancelled by the client');
  });

  it('checks scripts built to be slow in linear time: unclosed brackets, thousands of unknown names', async () => {
    const unclosed = `extends Node\nfunc f():\n\tprint(${'a('.repeat(80_000)}`;
    for (const code of [unclosed, UNKNOWN]) {
      expect(code.length).toBeLessThanOrEqual(MAX_CODE);
      const r = await call('godot_check_api', { code });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent!.results.length).toBeLessThanOrEqual(MAX_RESULTS);
    }
    const r = (await call('godot_check_api', { code: UNKNOWN })).structuredContent!;
    // The `extends Node` line is a check too.
    expect(r).toMatchObject({ ok: false, checked: 8001, problems: 8000, truncated: { results: 8001, shown: MAX_RESULTS } });
  });

  it('refuses code over the cap with an error naming the field', async () => {
    const r = await call('godot_check_api', { code: 'x'.repeat(MAX_CODE + 1) });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/code/);
    expect(r.content[0].text).toContain(`longer than ${MAX_CODE} characters`);
  });
});

describe('godot_search with hostile queries', () => {
  const words = Array.from({ length: 120 }, (_, i) => `w${i.toString(36)}x`)
    .join(' ')
    .slice(0, 500);
  const names = Array.from({ length: 60 }, (_, i) => `get_nod${i}_x`)
    .join(' ')
    .slice(0, 500);

  it('matches a bounded number of terms and names however many the query holds', () => {
    expect(planQuery(index, words, RANKING).own.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
    expect(identifiersOf(names).length).toBeLessThanOrEqual(MAX_IDENTIFIERS);
  });

  // Every vocabulary word a question may hold (the shipped rounds and the third, which the bench
  // tries), those bringing the most reference words first: each becomes a concept whose added words
  // are scanned again per concept (a common word such as `node` may join many), so the number of
  // posting lists a query scans must stay capped too.
  const thirdFile = path.join(import.meta.dirname, '../../../bench/data/godot-vocabulary-third.tsv');
  const vocabulary = new Vocabulary(shippedVocabulary().all()).add(parseVocabulary(readFileSync(thirdFile, 'utf8')));
  const targets = new Map(vocabulary.all().map((e) => [e.word, e.targets]));
  const added = (word: string) => terms(targets.get(word)!).length;
  const vocabularyWords = [...targets.keys()]
    .sort((a, b) => added(b) - added(a))
    .join(' ')
    .slice(0, 500);

  it('scans a bounded number of posting lists for a query of vocabulary words, each bringing its reference words', () => {
    // Every round of tables on, shipped or not: the worst case.
    const plan = planQuery(index, vocabularyWords, { ...RANKING, vocabulary: vocabulary.rounds }, vocabulary);
    const mostAdded = Math.max(...[...targets.keys()].map(added));
    const scanned = plan.concepts.reduce((n, c) => n + c.terms.size, 0);
    expect(plan.concepts.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
    expect(scanned).toBeLessThanOrEqual(MAX_QUERY_TERMS * (1 + mostAdded) + MAX_FUZZY_WORDS);
    expect(scanned).toBeGreaterThan(plan.concepts.length);
  });

  it('answers 500 characters of distinct words or misspelled names, and refuses more naming the field', async () => {
    for (const query of [words, names, vocabularyWords, `${'timer '.repeat(83)}`.slice(0, 500)]) {
      const r = await call('godot_search', { query });
      expect(r.isError, query.slice(0, 40)).toBeFalsy();
      expect(Array.isArray(JSON.parse(r.content[0].text!))).toBe(true);
    }
    const tooLong = await call('godot_search', { query: 'a'.repeat(501) });
    expect(tooLong.isError).toBe(true);
    expect(tooLong.content[0].text).toMatch(/query/);
  });
});
