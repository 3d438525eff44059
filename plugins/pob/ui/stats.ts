// The stats a build panel leads with, as PoB names them in <PlayerStat>, and how they are written.
export const DEFENCES = [
  ['Life', 'Life'],
  ['EnergyShield', 'Energy shield'],
  ['Mana', 'Mana'],
  ['TotalEHP', 'Effective HP'],
  ['Armour', 'Armour'],
  ['Evasion', 'Evasion'],
] as const;

export const RESISTANCES = [
  ['FireResist', 'Fire'],
  ['ColdResist', 'Cold'],
  ['LightningResist', 'Lightning'],
  ['ChaosResist', 'Chaos'],
] as const;

/** PoB's damage figures, most inclusive first: the panel shows the first one the build saved above 0. */
export const DAMAGE = [
  ['FullDPS', 'Full DPS'],
  ['CombinedDPS', 'Combined DPS'],
  ['TotalDPS', 'Hit DPS'],
  ['TotalDotDPS', 'DoT DPS'],
] as const;

export const ATTRIBUTES = [
  ['Str', 'Str'],
  ['Dex', 'Dex'],
  ['Int', 'Int'],
] as const;

const format = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
export const num = (n: number) => format.format(n);

/** The damage stat the panel shows: the first of DAMAGE above 0. */
export function mainDamage(stats: Record<string, number>): readonly [key: string, label: string] | undefined {
  return DAMAGE.find(([k]) => (stats[k] ?? 0) > 0);
}
