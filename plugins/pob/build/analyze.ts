// What a build XML says, without running PoB: character, skills, items, tree, config and the
// stats PoB saved (<PlayerStat>, PoB's own numbers at save time).
import { parseItemText, type ItemSummary } from './item-text.js';
import { activeItemSetOf, spiritOf, weaponSetsOf, type Game, type Spirit, type WeaponSets } from './poe2.js';
import { activeEntry, attr, boolAttr, child, children, gameOf, numberAttr, textOf, type XmlElement } from './xml.js';

export interface GemInfo {
  name: string;
  skillId?: string;
  level?: number;
  quality?: number;
  qualityId?: string;
  enabled: boolean;
  support: boolean;
}

interface SocketGroup {
  index: number;
  label?: string;
  slot?: string;
  source?: string;
  enabled: boolean;
  includeInFullDPS: boolean;
  main: boolean;
  gems: GemInfo[];
}

export interface EquippedItem extends ItemSummary {
  slot: string;
  id: number;
  active?: boolean;
}

interface TreeInfo {
  version?: string;
  classId?: number;
  ascendClassId?: number;
  secondaryAscendClassId?: number;
  title?: string;
  /** Allocated node ids as PoB saved them. */
  nodes: number[];
  nodeCount: number;
  masteryEffects: Array<{ mastery: number; effect: number }>;
  jewels: Array<{ nodeId: number; itemId: number; name?: string }>;
  specCount: number;
  url?: string;
}

export type ConfigValue = boolean | number | string;

export interface BuildAnalysis {
  /** poe2 for a <PathOfBuilding2> build (Path of Building 2), else poe1. */
  game: Game;
  className?: string;
  ascendClassName?: string;
  level?: number;
  targetVersion?: string;
  bandit?: string;
  pantheonMajorGod?: string;
  pantheonMinorGod?: string;
  mainSkill?: { group: number; name?: string; slot?: string };
  skills: { activeSkillSet?: string; groups: SocketGroup[] };
  items: { activeItemSet?: string; equipped: EquippedItem[]; jewels: EquippedItem[] };
  tree: TreeInfo;
  config: { activeConfigSet?: string; inputs: Record<string, ConfigValue>; placeholders: Record<string, ConfigValue> };
  stats: Record<string, number>;
  minionStats: Record<string, number>;
  fullDpsSkills: Array<{ name: string; value: number }>;
  /** PoE2: the Spirit PoB saved (total, unreserved), when it saved it. */
  spirit?: Spirit;
  /** PoE2: the passive points of each weapon set, and the set in use. */
  weaponSets?: WeaponSets;
}

function isSupport(gem: XmlElement): boolean {
  return /SupportGem/.test(attr(gem, 'gemId') ?? '') || /^Support/.test(attr(gem, 'skillId') ?? '');
}

function gemInfo(gem: XmlElement): GemInfo {
  const nameSpec = attr(gem, 'nameSpec');
  return {
    name: nameSpec || attr(gem, 'skillId') || attr(gem, 'gemId') || '?',
    skillId: attr(gem, 'skillId'),
    level: numberAttr(gem, 'level'),
    quality: numberAttr(gem, 'quality'),
    qualityId: attr(gem, 'qualityId'),
    enabled: boolAttr(gem, 'enabled', true),
    support: isSupport(gem),
  };
}

function skillsOf(root: XmlElement, mainGroup: number | undefined) {
  const skillsEl = child(root, 'Skills');
  const set = activeEntry(skillsEl, 'SkillSet', 'activeSkillSet');
  const groups: SocketGroup[] = children(set, 'Skill').map((skill, k) => ({
    index: k + 1,
    label: attr(skill, 'label') || undefined,
    slot: attr(skill, 'slot'),
    source: attr(skill, 'source'),
    enabled: boolAttr(skill, 'enabled', true),
    includeInFullDPS: attr(skill, 'includeInFullDPS') === 'true',
    main: k + 1 === mainGroup,
    gems: children(skill, 'Gem').map(gemInfo),
  }));
  let mainSkill: BuildAnalysis['mainSkill'];
  const main = mainGroup ? groups[mainGroup - 1] : undefined;
  if (main) {
    const actives = main.gems.filter((g) => !g.support && g.enabled);
    const pick = numberAttr(children(set, 'Skill')[main.index - 1], 'mainActiveSkill') ?? 1;
    mainSkill = { group: main.index, name: (actives[pick - 1] ?? actives[0])?.name ?? main.label, slot: main.slot };
  }
  return { skills: { activeSkillSet: attr(skillsEl, 'activeSkillSet'), groups }, mainSkill };
}

function itemsOf(root: XmlElement, sockets: Array<{ nodeId: number; itemId: number }>) {
  const itemsEl = child(root, 'Items');
  const byId = new Map<number, ItemSummary>();
  for (const item of children(itemsEl, 'Item')) {
    const id = numberAttr(item, 'id');
    if (id !== undefined) byId.set(id, parseItemText(textOf(item)));
  }
  const set = activeEntry(itemsEl, 'ItemSet', 'activeItemSet');
  const equipped: EquippedItem[] = [];
  for (const slot of children(set, 'Slot')) {
    const id = numberAttr(slot, 'itemId') ?? 0;
    const item = byId.get(id);
    if (id === 0 || !item) continue;
    const active = attr(slot, 'active');
    equipped.push({ slot: attr(slot, 'name') ?? '?', id, ...item, ...(active !== undefined ? { active: active === 'true' } : {}) });
  }
  const jewels = sockets
    .map(({ nodeId, itemId }) => {
      const item = byId.get(itemId);
      return item ? { slot: `Jewel ${nodeId}`, id: itemId, ...item } : undefined;
    })
    .filter((j): j is EquippedItem => j !== undefined);
  return { activeItemSet: attr(itemsEl, 'activeItemSet'), equipped, jewels, byId };
}

function treeOf(root: XmlElement): TreeInfo {
  const treeEl = child(root, 'Tree');
  const specs = children(treeEl, 'Spec');
  const spec = activeEntry(treeEl, 'Spec', 'activeSpec', true);
  const nodes = (attr(spec, 'nodes') ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
  const masteryEffects = [...(attr(spec, 'masteryEffects') ?? '').matchAll(/\{(\d+),(\d+)\}/g)].map((m) => ({
    mastery: Number(m[1]),
    effect: Number(m[2]),
  }));
  const jewels = children(child(spec, 'Sockets'), 'Socket')
    .map((s) => ({ nodeId: numberAttr(s, 'nodeId') ?? 0, itemId: numberAttr(s, 'itemId') ?? 0 }))
    .filter((s) => s.nodeId > 0 && s.itemId > 0);
  const url = textOf(child(spec, 'URL')).trim() || undefined;
  return {
    version: attr(spec, 'treeVersion'),
    classId: numberAttr(spec, 'classId'),
    ascendClassId: numberAttr(spec, 'ascendClassId'),
    secondaryAscendClassId: numberAttr(spec, 'secondaryAscendClassId'),
    title: attr(spec, 'title'),
    nodes,
    nodeCount: nodes.length,
    masteryEffects,
    jewels,
    specCount: specs.length,
    url,
  };
}

function configValue(input: XmlElement): ConfigValue | undefined {
  const b = attr(input, 'boolean');
  if (b !== undefined) return b === 'true';
  const n = numberAttr(input, 'number');
  if (n !== undefined) return n;
  return attr(input, 'string');
}

function configOf(root: XmlElement) {
  const configEl = child(root, 'Config');
  const set = activeEntry(configEl, 'ConfigSet', 'activeConfigSet');
  const collect = (name: string) => {
    const out: Record<string, ConfigValue> = {};
    for (const input of children(set, name)) {
      const key = attr(input, 'name');
      const value = configValue(input);
      if (key && value !== undefined) out[key] = value;
    }
    return out;
  };
  return { activeConfigSet: attr(configEl, 'activeConfigSet'), inputs: collect('Input'), placeholders: collect('Placeholder') };
}

function statsOf(build: XmlElement | undefined, name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of children(build, name)) {
    const stat = attr(s, 'stat');
    const value = numberAttr(s, 'value');
    if (stat && value !== undefined) out[stat] = value;
  }
  return out;
}

export function analyzeBuild(root: XmlElement): BuildAnalysis {
  const build = child(root, 'Build');
  const tree = treeOf(root);
  const config = configOf(root);
  const { skills, mainSkill } = skillsOf(root, numberAttr(build, 'mainSocketGroup'));
  const { activeItemSet, equipped, jewels, byId } = itemsOf(root, tree.jewels);
  tree.jewels = tree.jewels.map((j) => ({ ...j, name: byId.get(j.itemId)?.name }));
  const pick = (key: string) => (typeof config.inputs[key] === 'string' ? (config.inputs[key] as string) : attr(build, key));
  const ascend = attr(build, 'ascendClassName');
  const game = gameOf(root);
  const stats = statsOf(build, 'PlayerStat');
  const itemsEl = child(root, 'Items');
  const weaponSets =
    game === 'poe2'
      ? weaponSetsOf(activeEntry(child(root, 'Tree'), 'Spec', 'activeSpec', true), itemsEl, activeItemSetOf(itemsEl))
      : undefined;
  const spirit = game === 'poe2' ? spiritOf(stats) : undefined;
  return {
    game,
    className: attr(build, 'className'),
    ascendClassName: ascend && ascend !== 'None' ? ascend : undefined,
    level: numberAttr(build, 'level'),
    targetVersion: attr(build, 'targetVersion'),
    bandit: pick('bandit'),
    pantheonMajorGod: pick('pantheonMajorGod'),
    pantheonMinorGod: pick('pantheonMinorGod'),
    mainSkill,
    skills,
    items: { activeItemSet, equipped, jewels },
    tree,
    config,
    stats,
    minionStats: statsOf(build, 'MinionStat'),
    fullDpsSkills: children(build, 'FullDPSSkill')
      .map((s) => ({ name: attr(s, 'stat') ?? '?', value: numberAttr(s, 'value') ?? NaN }))
      .filter((s) => Number.isFinite(s.value)),
    ...(spirit && { spirit }),
    ...(weaponSets && { weaponSets }),
  };
}
