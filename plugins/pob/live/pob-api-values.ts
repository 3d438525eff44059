// Reading the pob-api fork's answers: dkjson's quirks (an empty table is `[]`), its tree table,
// and stats looked up the way mcphost's server names them (`Minion.Life`, `MainHandAccuracy`).

/** The stats an edit or a what-if reports when the caller names none (as mcphost's server does). */
export const HEADLINE = [
  'Life',
  'EnergyShield',
  'Mana',
  'Ward',
  'TotalEHP',
  'Armour',
  'Evasion',
  'FireResist',
  'ColdResist',
  'LightningResist',
  'ChaosResist',
  'BlockChance',
  'SpellBlockChance',
  'SpellSuppressionChance',
  'TotalDPS',
  'CombinedDPS',
  'FullDPS',
  'TotalDot',
  'AverageHit',
  'Speed',
  'CritChance',
  'HitChance',
  'Str',
  'Dex',
  'Int',
];

/** dkjson writes an empty Lua table as `[]`: read it as an empty object. */
export function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
}

const isStat = (v: unknown) => (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean' || typeof v === 'string';

export interface ForkTree {
  treeVersion?: string;
  classId: number;
  ascendClassId: number;
  secondaryAscendClassId: number;
  nodes: number[];
  masteryEffects: Record<string, number>;
}

/** BuildOps.get_tree's table, with `masteryEffects` always an object keyed by mastery id. */
export function treeOf(raw: unknown): ForkTree {
  const t = objectOf(raw);
  const nodes = (Array.isArray(t.nodes) ? t.nodes : []).map(Number).filter(Number.isFinite);
  const masteryEffects: Record<string, number> = {};
  for (const [id, effect] of Object.entries(objectOf(t.masteryEffects))) masteryEffects[String(id)] = Number(effect);
  return {
    ...(typeof t.treeVersion === 'string' ? { treeVersion: t.treeVersion } : {}),
    classId: Number(t.classId ?? 0),
    ascendClassId: Number(t.ascendClassId ?? 0),
    secondaryAscendClassId: Number(t.secondaryAscendClassId ?? 0),
    nodes: nodes.sort((a, b) => a - b),
    masteryEffects,
  };
}

/**
 * The fork looks stats up by top-level key only: a dotted name (`Minion.Life`) or a weapon stat
 * (`MainHandAccuracy`) needs its parent table.
 */
export function sourcesOf(name: string): string[] {
  const out = [name.split('.')[0]!];
  const weapon = /^(MainHand|OffHand)(.+)$/.exec(name);
  if (weapon) out.push(weapon[1]!);
  return out;
}

function resolve(output: Record<string, unknown>, name: string): unknown {
  const direct = output[name];
  if (direct !== undefined && (typeof direct !== 'object' || direct === null)) return direct;
  let cur: unknown = output;
  for (const part of name.split('.')) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
  if (cur !== undefined && typeof cur !== 'object') return cur;
  const weapon = /^(MainHand|OffHand)(.+)$/.exec(name);
  return weapon ? objectOf(output[weapon[1]!])[weapon[2]!] : undefined;
}

export function pick(output: Record<string, unknown>, fields: string[]): { values: Record<string, unknown>; missing: string[] } {
  const values: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const name of fields) {
    const v = resolve(output, name);
    if (isStat(v)) values[name] = v;
    else missing.push(name);
  }
  return { values, missing };
}

export function changes(before: Record<string, unknown>, after: Record<string, unknown>, fields: string[]) {
  const out: Record<string, { before: number; after: number; delta: number }> = {};
  for (const name of fields) {
    const b = before[name];
    const a = after[name];
    if (typeof a === 'number' && typeof b === 'number' && a !== b) out[name] = { before: b, after: a, delta: a - b };
  }
  return out;
}
