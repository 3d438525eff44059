// The five predefined XML entities and numeric character references. Godot's doc XML uses
// nothing else, and decoding them here lets the parser skip its general entity machinery.
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, named: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (named) return NAMED[named];
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
    return code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
