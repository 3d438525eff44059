// Words → index terms. Identifiers are split the way people search for them:
//   Camera3D            → camera, 3d, camera3d
//   CharacterBody2D     → character, body, 2d, characterbody2d
//   get_global_position → get, global, position
// Everything is lowercased, stopwords and one-character tokens are dropped. `terms()` adds Porter2
// stemming on top (the same for documents and queries), so "collisions" finds "collision".
import stem from 'wink-porter2-stemmer';

const WORD = /[A-Za-z0-9_]+/g;
// Runs of capitals (HTTP in HTTPRequest), capitalised or lowercase words, and digit runs with
// the 2D/3D/2i suffix Godot's class names use.
const PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+(?:[A-Z](?![a-z])|[a-z](?![a-z]))?/g;

// "has" is not one: Godot names its containment tests with it (has_node, has_method, Dictionary.has).
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could do does did for from had have how i if in into is it its ' +
    'me my no not of on or our so such that the their them then there these they this those to too us was we ' +
    'were what when where which while who why will with would you your yours should shall may might must ' +
    'about after all also any because before being between both each got just more most other over ' +
    'same some than very want'
  ).split(' '),
);
function keep(token: string): boolean {
  return token.length >= 2 && !STOPWORDS.has(token);
}

/** The tokens of one identifier-like word (`Node2D`, `move_and_slide`, `pressed`). */
function wordTokens(word: string): string[] {
  const out: string[] = [];
  for (const segment of word.split('_')) {
    if (segment === '') continue;
    const parts = segment.match(PART) ?? [];
    for (const part of parts) {
      const lower = part.toLowerCase();
      if (keep(lower)) out.push(lower);
    }
    if (parts.length > 1) {
      const whole = segment.toLowerCase();
      if (keep(whole)) out.push(whole);
    }
  }
  return out;
}

/** Splits text (prose or identifiers) into lowercase tokens, without stemming. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD)) out.push(...wordTokens(m[0]));
  return out;
}

const cache = new Map<string, string[]>();
const stems = new Map<string, string>();
const CACHE_LIMIT = 200_000;

function stemOf(token: string): string {
  let hit = stems.get(token);
  if (hit === undefined) {
    hit = /^[a-z]+$/.test(token) ? stem(token) : token;
    if (stems.size >= CACHE_LIMIT) stems.clear();
    stems.set(token, hit);
  }
  return hit;
}

function stemmed(word: string): string[] {
  let hit = cache.get(word);
  if (hit === undefined) {
    hit = wordTokens(word).map(stemOf);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(word, hit);
  }
  return hit;
}

/** Index terms of one word (a run of [A-Za-z0-9_]); the cached array itself: do not change it. */
export function wordTerms(word: string): readonly string[] {
  return stemmed(word);
}

/** Frees the per-word caches (the build fills them with the whole vocabulary; queries refill little). */
export function clearTermCache(): void {
  cache.clear();
  stems.clear();
}

const SPLIT = /[^A-Za-z0-9_]+/;

/** Index terms: tokenize + Porter2 stemming (cached per word; the vocabulary is small). */
export function terms(text: string): string[] {
  const out: string[] = [];
  if (!text) return out;
  const words = text.split(SPLIT);
  for (let w = 0; w < words.length; w++) {
    const word = words[w];
    if (word === '') continue;
    const t = stemmed(word);
    for (let i = 0; i < t.length; i++) out.push(t[i]);
  }
  return out;
}
