// PoB's item text (the body of <Item>): rarity, name and base, properties, then "Implicits: N",
// the implicit mod lines and the explicit ones. Mod lines may carry `{crafted}`, `{variant:1,2}`,
// `{range:0.5}`… prefixes; mods of variants the item does not use are left out.

export interface ItemSummary {
  rarity: string;
  name: string;
  base?: string;
  properties: Record<string, string>;
  implicits: string[];
  explicits: string[];
  /** Crafted, fractured, enchant… lines keep their kind as a suffix in the lists above. */
  corrupted: boolean;
}

const FLAG_LINES = new Set(['Corrupted', 'Mirrored', 'Split', 'Unidentified', 'Synthesised Item', 'Fractured Item']);
const TAGGED_KINDS = ['crafted', 'fractured', 'enchant', 'scourge', 'crucible', 'exarch', 'eater', 'synthesis', 'custom'];

interface ModLine {
  text: string;
  kind?: string;
  variants?: number[];
}

function parseModLine(line: string): ModLine {
  let rest = line;
  let kind: string | undefined;
  let variants: number[] | undefined;
  for (let m = /^\{([^}]*)\}/.exec(rest); m; m = /^\{([^}]*)\}/.exec(rest)) {
    const [tag, value] = m[1].split(':');
    if (tag === 'variant' && value) variants = value.split(',').map(Number).filter(Number.isFinite);
    else if (TAGGED_KINDS.includes(tag)) kind = tag;
    rest = rest.slice(m[0].length);
  }
  return { text: rest.trim(), kind, variants };
}

function render(mod: ModLine): string {
  return mod.kind ? `${mod.text} (${mod.kind})` : mod.text;
}

export function parseItemText(raw: string): ItemSummary {
  const lines = raw
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  let i = 0;
  const rarityLine = /^Rarity:\s*(\S+)/.exec(lines[0] ?? '');
  const rarity = rarityLine ? rarityLine[1].toUpperCase() : 'UNKNOWN';
  if (rarityLine) i++;
  const name = lines[i++] ?? '';
  let base: string | undefined;
  if (
    (rarity === 'RARE' || rarity === 'UNIQUE' || rarity === 'RELIC') &&
    lines[i] !== undefined &&
    !/^[A-Za-z][A-Za-z ]*:\s/.test(lines[i])
  )
    base = lines[i++];
  const properties: Record<string, string> = {};
  let implicitCount: number | undefined;
  for (; i < lines.length; i++) {
    const prop = /^([A-Za-z][A-Za-z ]*):\s*(.*)$/.exec(lines[i]);
    if (!prop) break;
    if (prop[1] === 'Implicits') {
      implicitCount = Number(prop[2]) || 0;
      i++;
      break;
    }
    properties[prop[1]] = prop[2];
  }
  const selected = Number(properties['Selected Variant']);
  const mods: ModLine[] = [];
  let corrupted = false;
  for (; i < lines.length; i++) {
    if (FLAG_LINES.has(lines[i])) {
      if (lines[i] === 'Corrupted') corrupted = true;
      continue;
    }
    mods.push(parseModLine(lines[i]));
  }
  const count = implicitCount ?? 0;
  const inVariant = (m: ModLine) => !m.variants || !Number.isFinite(selected) || m.variants.includes(selected);
  const keep = (list: ModLine[]) => list.filter((m) => m.text !== '' && inVariant(m)).map(render);
  return {
    rarity,
    name,
    base,
    properties,
    implicits: keep(mods.slice(0, count)),
    explicits: keep(mods.slice(count)),
    corrupted,
  };
}
