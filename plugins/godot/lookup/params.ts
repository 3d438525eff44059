// The shipped ranking numbers, read from data/ranking.json (written by bench/godot-fit.js) and
// checked on load: a malformed file names the field, instead of ranking with NaN.
import * as z from 'zod';
import { readDataFile } from '../data-files.js';
import { FIELD_COUNT } from '../search-index/partial.js';
import type { RankingParams } from '../ranking-params.js';

const perField = z.array(z.number().min(0)).length(FIELD_COUNT);
const weight = z.number().min(0);

const paramsSchema = z.strictObject({
  bm25f: z.strictObject({ weights: perField, b: z.array(z.number().min(0).max(1)).length(FIELD_COUNT), k1: z.number().positive() }),
  grouped: z.boolean(),
  vocabulary: z.array(z.string()),
  popularity: weight,
  mention: weight,
  kindHint: weight,
  kindWord: weight,
  synonym: weight,
  spelling: weight,
  identifier: weight,
  identifierFuzzy: weight,
  identifierPrefix: weight,
  wholeName: weight,
});

/** Parses the JSON of a ranking file; throws naming the field at fault. */
export function parseRanking(json: string, file = 'ranking.json'): RankingParams {
  const parsed = paramsSchema.safeParse((JSON.parse(json) as { params?: unknown }).params);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: params.${issue.path.join('.')}: ${issue.message} (rewrite it with node bench/godot-fit.js --write odd)`);
  }
  return parsed.data;
}

export const RANKING: RankingParams = parseRanking(readDataFile('ranking.json'));
