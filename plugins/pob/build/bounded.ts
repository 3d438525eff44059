// Real builds have tens of socket groups, items and config inputs and at most a few hundred tree
// nodes; a made-up build can have a hundred thousand of any of them, and its analysis would be an
// answer of hundreds of megabytes (and a long copy out of the parse worker). Lists and key sets
// past the cap are cut, and the analysis says where and how long they were.
const LIST_CAP = 1000;

function cut(value: unknown, at: string, cap: number, truncated: Record<string, number>): unknown {
  if (Array.isArray(value)) {
    if (value.length > cap) truncated[at] = value.length;
    return value.slice(0, cap).map((v, i) => cut(v, `${at}[${i}]`, cap, truncated));
  }
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length > cap) truncated[at] = entries.length;
  return Object.fromEntries(entries.slice(0, cap).map(([k, v]) => [k, cut(v, at ? `${at}.${k}` : k, cap, truncated)]));
}

/** The analysis with every list and key set cut to `cap` entries; `truncated` maps each cut path to its full length. */
export function bounded<T extends object>(analysis: T, cap = LIST_CAP): T & { truncated?: Record<string, number> } {
  const truncated: Record<string, number> = {};
  const out = cut(analysis, '', cap, truncated) as T;
  return Object.keys(truncated).length ? { ...out, truncated } : out;
}
