// What a Path of Exile 2 build (`<PathOfBuilding2>`, PathOfBuilding-PoE2) holds besides what both
// games' builds do: Spirit (PoE2's reservation pool: the PlayerStat keys Spirit, SpiritUnreserved,
// SpiritUnreservedPercent, as src/Modules/BuildDisplayStats.lua names them), and weapon sets — the
// passive points each weapon set allocates (`<Spec><WeaponSet1 nodes>` / `<WeaponSet2 nodes>`),
// which set is in use (`<Items useSecondWeaponSet>`), and the swap slots (`Weapon 1 Swap`, …).
import { attr, boolAttr, child, children, type XmlElement } from './xml.js';

export type Game = 'poe1' | 'poe2';

export interface WeaponSets {
  /** The set in use (`useSecondWeaponSet` of the active item set, else of `<Items>`). */
  active: 1 | 2;
  /** Passive points allocated only while each set is in use. */
  sets: Array<{ set: 1 | 2; nodes: number[]; nodeCount: number }>;
}

export interface Spirit {
  total?: number;
  unreserved?: number;
  unreservedPercent?: number;
}

const ids = (list: string | undefined) =>
  (list ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);

export function weaponSetsOf(
  spec: XmlElement | undefined,
  items: XmlElement | undefined,
  activeItemSet: XmlElement | undefined,
): WeaponSets | undefined {
  const sets = ([1, 2] as const)
    .map((set) => ({ set, el: child(spec, `WeaponSet${set}`) }))
    .filter((s) => s.el !== undefined)
    .map(({ set, el }) => {
      const nodes = ids(attr(el, 'nodes'));
      return { set, nodes, nodeCount: nodes.length };
    });
  const second =
    attr(activeItemSet, 'useSecondWeaponSet') !== undefined
      ? boolAttr(activeItemSet, 'useSecondWeaponSet', false)
      : boolAttr(items, 'useSecondWeaponSet', false);
  if (sets.length === 0 && attr(items, 'useSecondWeaponSet') === undefined) return undefined;
  return { active: second ? 2 : 1, sets };
}

export function spiritOf(stats: Record<string, number>): Spirit | undefined {
  const spirit: Spirit = {
    ...(stats.Spirit !== undefined && { total: stats.Spirit }),
    ...(stats.SpiritUnreserved !== undefined && { unreserved: stats.SpiritUnreserved }),
    ...(stats.SpiritUnreservedPercent !== undefined && { unreservedPercent: stats.SpiritUnreservedPercent }),
  };
  return Object.keys(spirit).length > 0 ? spirit : undefined;
}

/** The item set the build uses (`<Items activeItemSet>`), for its weapon-set flag. */
export function activeItemSetOf(items: XmlElement | undefined): XmlElement | undefined {
  const active = attr(items, 'activeItemSet') ?? '1';
  return children(items, 'ItemSet').find((s) => attr(s, 'id') === active);
}
