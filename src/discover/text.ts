// Words → search terms for ranking tools. Identifiers are split the way people describe them
// (`pob_lua_set_level` → pob, lua, set, level; `CaptureViewport` → capture, viewport; `get-sum` →
// get, sum), everything is lowercased, stop words and one-letter tokens dropped, and words are
// stemmed (Porter2) alike in tools and queries, so "collisions" meets "collision".
import stem from 'wink-porter2-stemmer';

const WORD = /[A-Za-z0-9]+/g;
// Runs of capitals (HTTP in HTTPRequest), capitalised or lowercase words, digit runs with a 2D/3D suffix.
const PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+(?:[A-Z](?![a-z])|[a-z](?![a-z]))?/g;

const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could do does did for from had have how i if in into is it its ' +
    'me my no not of on or our so such that the their them then there these they this those to too us was we ' +
    'were what when where which while who why will with would you your yours should shall may might must ' +
    'about after all also any because before being both each got just more most other over ' +
    'same some than very want need tell please let using use one ones give show like way'
  ).split(' '),
);

function keep(token: string): boolean {
  return token.length >= 2 && !STOPWORDS.has(token);
}

const stems = new Map<string, string>();

function stemOf(token: string): string {
  let hit = stems.get(token);
  if (hit === undefined) {
    hit = /^[a-z]+$/.test(token) ? stem(token) : token;
    if (stems.size > 50_000) stems.clear();
    stems.set(token, hit);
  }
  return hit;
}

/** The stemmed terms of a text (prose or identifiers); an identifier also yields itself whole. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.matchAll(WORD)) {
    const parts = word.match(PART) ?? [];
    for (const part of parts) {
      const lower = part.toLowerCase();
      if (keep(lower)) out.push(stemOf(lower));
    }
    if (parts.length > 1) {
      const whole = word.toLowerCase();
      if (keep(whole)) out.push(whole);
    }
  }
  return out;
}
