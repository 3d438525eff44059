// Relevance over the real Godot 4 reference (../shared/data/godot-docs): realistic questions whose
// answer must be in the top three results for at least 80% of them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../helpers/paths.ts';
import { search } from '../../../plugins/godot/lookup/search.ts';
import { fixtureIndex, HAVE_SHARED, SHARED4 } from './helpers.ts';

interface Query {
  query: string;
  expected: string[];
}

const { queries } = JSON.parse(readFileSync(path.join(FIXTURES, 'godot/relevance-queries.json'), 'utf8')) as { queries: Query[] };

if (!HAVE_SHARED) console.log(`skipping godot relevance: no Godot reference at ${SHARED4} (set MCPHOST_SHARED_DATA)`);

describe.skipIf(!HAVE_SHARED)('relevance on the shared Godot 4 reference', () => {
  it('has at least 30 realistic queries, each expecting symbols that exist', async () => {
    const index = await fixtureIndex(SHARED4);
    const known = new Set(index.docs.map((_, id) => index.qualifiedName(id)));
    expect(queries.length).toBeGreaterThanOrEqual(30);
    for (const q of queries) for (const name of q.expected) expect(known, `${q.query} → ${name}`).toContain(name);
  });

  it('puts an expected symbol in the top 3 for at least 80% of the queries (hit@3), and reports MRR', async () => {
    const index = await fixtureIndex(SHARED4);
    let reciprocal = 0;
    let hits = 0;
    const misses: string[] = [];
    for (const q of queries) {
      const rank = search(index, q.query, { limit: 10 }).findIndex((r) => q.expected.includes(r.name)) + 1;
      if (rank > 0) reciprocal += 1 / rank;
      if (rank > 0 && rank <= 3) hits++;
      else misses.push(`${q.query} (rank ${rank || '>10'})`);
    }
    const hitAt3 = hits / queries.length;
    console.log(
      `godot relevance: hit@3 ${hitAt3.toFixed(3)}, MRR ${(reciprocal / queries.length).toFixed(3)} over ${queries.length} queries; misses: ${misses.join('; ')}`,
    );
    expect(hitAt3).toBeGreaterThanOrEqual(0.8);
  });
});
