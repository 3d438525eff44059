// Differences between two analysed builds: saved stats, tree nodes, gems, items and config.
import type { BuildAnalysis, ConfigValue, EquippedItem, GemInfo } from './analyze.js';

interface StatDelta {
  a?: number;
  b?: number;
  delta?: number;
  /** Relative change in percent of `a`, when `a` is not zero. */
  percent?: number;
}

interface GemChange {
  name: string;
  a: Pick<GemInfo, 'level' | 'quality' | 'enabled'>;
  b: Pick<GemInfo, 'level' | 'quality' | 'enabled'>;
}

interface ItemChange {
  slot: string;
  a?: string;
  b?: string;
  modsAdded: string[];
  modsRemoved: string[];
}

export interface BuildComparison {
  character: Record<string, { a?: string | number; b?: string | number }>;
  stats: Record<string, StatDelta>;
  statsCompared: number;
  tree: {
    a: { version?: string; nodeCount: number };
    b: { version?: string; nodeCount: number };
    added: number[];
    removed: number[];
    masteriesChanged: Array<{ mastery: number; a?: number; b?: number }>;
  };
  gems: { added: string[]; removed: string[]; changed: GemChange[] };
  items: ItemChange[];
  config: Record<string, { a?: ConfigValue; b?: ConfigValue }>;
  /** Only when the two builds are for different games. */
  games?: { a: string; b: string };
  /** PoE2 builds: what changed in each weapon set's passive points. */
  weaponSets?: { sets: Array<{ set: 1 | 2; added: number[]; removed: number[] }>; active?: { a?: 1 | 2; b?: 1 | 2 } };
}

function statDeltas(a: Record<string, number>, b: Record<string, number>) {
  const out: Record<string, StatDelta> = {};
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const name of names) {
    const x = a[name];
    const y = b[name];
    if (x === y) continue;
    const entry: StatDelta = { a: x, b: y };
    if (x !== undefined && y !== undefined) {
      entry.delta = y - x;
      if (x !== 0) entry.percent = ((y - x) / Math.abs(x)) * 100;
    }
    out[name] = entry;
  }
  return { stats: out, statsCompared: names.length };
}

function allGems(build: BuildAnalysis): Map<string, GemInfo[]> {
  const map = new Map<string, GemInfo[]>();
  for (const group of build.skills.groups) {
    for (const gem of group.gems) map.set(gem.name, [...(map.get(gem.name) ?? []), gem]);
  }
  return map;
}

function gemChanges(a: BuildAnalysis, b: BuildAnalysis) {
  const ga = allGems(a);
  const gb = allGems(b);
  const added: string[] = [];
  const removed: string[] = [];
  const changed: GemChange[] = [];
  for (const name of new Set([...ga.keys(), ...gb.keys()])) {
    const la = ga.get(name) ?? [];
    const lb = gb.get(name) ?? [];
    for (let i = lb.length; i < la.length; i++) removed.push(name);
    for (let i = la.length; i < lb.length; i++) added.push(name);
    for (let i = 0; i < Math.min(la.length, lb.length); i++) {
      const x = la[i];
      const y = lb[i];
      if (x.level !== y.level || x.quality !== y.quality || x.enabled !== y.enabled) {
        changed.push({
          name,
          a: { level: x.level, quality: x.quality, enabled: x.enabled },
          b: { level: y.level, quality: y.quality, enabled: y.enabled },
        });
      }
    }
  }
  return { added: added.sort(), removed: removed.sort(), changed };
}

function itemChanges(a: BuildAnalysis, b: BuildAnalysis): ItemChange[] {
  const bySlot = (build: BuildAnalysis) =>
    new Map<string, EquippedItem>([...build.items.equipped, ...build.items.jewels].map((i) => [i.slot, i]));
  const ia = bySlot(a);
  const ib = bySlot(b);
  const out: ItemChange[] = [];
  for (const slot of new Set([...ia.keys(), ...ib.keys()])) {
    const x = ia.get(slot);
    const y = ib.get(slot);
    const modsA = x ? [...x.implicits, ...x.explicits] : [];
    const modsB = y ? [...y.implicits, ...y.explicits] : [];
    const modsAdded = modsB.filter((m) => !modsA.includes(m));
    const modsRemoved = modsA.filter((m) => !modsB.includes(m));
    if (x?.name === y?.name && modsAdded.length === 0 && modsRemoved.length === 0) continue;
    out.push({ slot, a: x?.name, b: y?.name, modsAdded, modsRemoved });
  }
  return out;
}

function configChanges(a: BuildAnalysis, b: BuildAnalysis) {
  const out: BuildComparison['config'] = {};
  for (const key of new Set([...Object.keys(a.config.inputs), ...Object.keys(b.config.inputs)])) {
    const x = a.config.inputs[key];
    const y = b.config.inputs[key];
    if (x !== y) out[key] = { a: x, b: y };
  }
  return out;
}

export function compareBuilds(a: BuildAnalysis, b: BuildAnalysis): BuildComparison {
  const character: BuildComparison['character'] = {};
  for (const key of ['className', 'ascendClassName', 'level', 'bandit', 'pantheonMajorGod', 'pantheonMinorGod'] as const) {
    if (a[key] !== b[key]) character[key] = { a: a[key], b: b[key] };
  }
  if (a.mainSkill?.name !== b.mainSkill?.name) character.mainSkill = { a: a.mainSkill?.name, b: b.mainSkill?.name };
  const nodesA = new Set(a.tree.nodes);
  const nodesB = new Set(b.tree.nodes);
  const mastA = new Map(a.tree.masteryEffects.map((m) => [m.mastery, m.effect]));
  const mastB = new Map(b.tree.masteryEffects.map((m) => [m.mastery, m.effect]));
  const masteriesChanged = [...new Set([...mastA.keys(), ...mastB.keys()])]
    .filter((id) => mastA.get(id) !== mastB.get(id))
    .map((id) => ({ mastery: id, a: mastA.get(id), b: mastB.get(id) }));
  return {
    character,
    ...statDeltas(a.stats, b.stats),
    tree: {
      a: { version: a.tree.version, nodeCount: a.tree.nodeCount },
      b: { version: b.tree.version, nodeCount: b.tree.nodeCount },
      added: b.tree.nodes.filter((n) => !nodesA.has(n)).sort((x, y) => x - y),
      removed: a.tree.nodes.filter((n) => !nodesB.has(n)).sort((x, y) => x - y),
      masteriesChanged,
    },
    gems: gemChanges(a, b),
    items: itemChanges(a, b),
    config: configChanges(a, b),
    ...(a.game !== b.game && { games: { a: a.game, b: b.game } }),
    ...((a.weaponSets || b.weaponSets) && { weaponSets: weaponSetChanges(a, b) }),
  };
}

/** PoE2: per weapon set, the passive points added and removed; and the set in use when it changed. */
function weaponSetChanges(a: BuildAnalysis, b: BuildAnalysis): NonNullable<BuildComparison['weaponSets']> {
  const nodes = (x: BuildAnalysis, set: 1 | 2) => x.weaponSets?.sets.find((s) => s.set === set)?.nodes ?? [];
  const sets = ([1, 2] as const).map((set) => {
    const na = new Set(nodes(a, set));
    const nb = new Set(nodes(b, set));
    return {
      set,
      added: [...nb].filter((n) => !na.has(n)).sort((x, y) => x - y),
      removed: [...na].filter((n) => !nb.has(n)).sort((x, y) => x - y),
    };
  });
  const active = a.weaponSets?.active !== b.weaponSets?.active ? { active: { a: a.weaponSets?.active, b: b.weaponSets?.active } } : {};
  return { sets, ...active };
}
