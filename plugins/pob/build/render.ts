// Short text renderings of analyses and comparisons, for people and models reading the text
// content (the full data is in structuredContent).
import type { BuildAnalysis } from './analyze.js';
import type { BuildComparison } from './compare.js';

export function formatNumber(n: number | undefined): string {
  if (n === undefined) return '-';
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  return Math.abs(n) >= 100 ? n.toLocaleString('en-US', { maximumFractionDigits: 1 }) : String(Number(n.toPrecision(6)));
}

const KEY_STATS = [
  'Life',
  'EnergyShield',
  'Mana',
  'TotalEHP',
  'Armour',
  'Evasion',
  'FireResist',
  'ColdResist',
  'LightningResist',
  'ChaosResist',
  'CombinedDPS',
  'TotalDPS',
  'FullDPS',
];

export function renderAnalysis(a: BuildAnalysis): string {
  const lines: string[] = [];
  const who = [
    a.className,
    a.ascendClassName ? `(${a.ascendClassName})` : undefined,
    a.level !== undefined ? `level ${a.level}` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  lines.push(`# ${who || 'Path of Building build'}${a.game === 'poe2' ? ' (Path of Exile 2)' : ''}`);
  if (a.mainSkill)
    lines.push(
      `Main skill: ${a.mainSkill.name ?? '?'} (socket group ${a.mainSkill.group}${a.mainSkill.slot ? `, ${a.mainSkill.slot}` : ''})`,
    );
  // Bandits and the pantheon are Path of Exile 1's; PoE2 has Spirit and weapon sets instead.
  if (a.game !== 'poe2')
    lines.push(`Bandit: ${a.bandit ?? 'None'}; pantheon: ${a.pantheonMajorGod ?? 'None'} / ${a.pantheonMinorGod ?? 'None'}`);
  if (a.spirit)
    lines.push(`Spirit: ${a.spirit.total ?? '?'}${a.spirit.unreserved !== undefined ? ` (${a.spirit.unreserved} unreserved)` : ''}`);
  if (a.weaponSets)
    lines.push(
      `Weapon sets: set ${a.weaponSets.active} in use; ${a.weaponSets.sets.map((s) => `set ${s.set} ${s.nodeCount} passive points`).join(', ') || 'no set-specific passive points'}`,
    );
  const t = a.tree;
  lines.push(
    `Tree ${t.version ?? '?'}: ${t.nodeCount} nodes, ${t.masteryEffects.length} masteries, ${t.jewels.length} socketed jewels${t.specCount > 1 ? ` (active tree of ${t.specCount})` : ''}`,
  );
  const stats = KEY_STATS.filter((k) => a.stats[k] !== undefined).map((k) => `${k} ${formatNumber(a.stats[k])}`);
  if (stats.length) lines.push(`Saved stats: ${stats.join(', ')} (${Object.keys(a.stats).length} in all)`);
  lines.push('', '## Skills');
  for (const g of a.skills.groups) {
    const gems = g.gems.map((gem) => `${gem.name} ${gem.level ?? '?'}/${gem.quality ?? 0}${gem.enabled ? '' : ' (off)'}`).join(', ');
    lines.push(`${g.index}. ${g.main ? '[main] ' : ''}${g.label ?? g.slot ?? g.source ?? ''}${g.enabled ? '' : ' (disabled)'}: ${gems}`);
  }
  lines.push('', '## Items');
  for (const item of [...a.items.equipped, ...a.items.jewels]) {
    lines.push(`${item.slot}: ${item.name}${item.base ? `, ${item.base}` : ''} (${item.rarity.toLowerCase()})`);
  }
  const inputs = Object.entries(a.config.inputs);
  if (inputs.length) lines.push('', `## Config`, inputs.map(([k, v]) => `${k}=${v}`).join(', '));
  return lines.join('\n');
}

export function renderComparison(c: BuildComparison): string {
  const lines: string[] = [];
  for (const [k, v] of Object.entries(c.character)) lines.push(`${k}: ${v.a ?? '-'} → ${v.b ?? '-'}`);
  const stats = Object.entries(c.stats);
  lines.push(`Saved stats: ${stats.length} of ${c.statsCompared} differ`);
  for (const [name, d] of stats.slice(0, 40)) {
    lines.push(
      `  ${name}: ${formatNumber(d.a)} → ${formatNumber(d.b)}${d.percent !== undefined ? ` (${d.percent >= 0 ? '+' : ''}${d.percent.toFixed(1)}%)` : ''}`,
    );
  }
  if (stats.length > 40) lines.push(`  … ${stats.length - 40} more in the structured result`);
  lines.push(
    `Tree: ${c.tree.a.version ?? '?'} ${c.tree.a.nodeCount} nodes → ${c.tree.b.version ?? '?'} ${c.tree.b.nodeCount} nodes; +${c.tree.added.length} −${c.tree.removed.length}`,
  );
  if (c.gems.added.length || c.gems.removed.length || c.gems.changed.length) {
    lines.push(
      `Gems: +[${c.gems.added.join(', ')}] −[${c.gems.removed.join(', ')}]${c.gems.changed.length ? `; changed ${c.gems.changed.map((g) => g.name).join(', ')}` : ''}`,
    );
  }
  for (const item of c.items)
    lines.push(`Item ${item.slot}: ${item.a ?? '-'} → ${item.b ?? '-'} (+${item.modsAdded.length} −${item.modsRemoved.length} mods)`);
  const config = Object.entries(c.config);
  if (config.length) lines.push(`Config: ${config.map(([k, v]) => `${k} ${v.a ?? '-'} → ${v.b ?? '-'}`).join(', ')}`);
  return lines.join('\n');
}
