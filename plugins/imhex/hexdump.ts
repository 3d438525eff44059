// A classic dump in xxd's default layout: offset, eight groups of two bytes, the ASCII column.
//   00000100: 4865 6c6c 6f2c 2077 6f72 6c64 210a 0000  Hello, world!...
import { asciiPreview } from './inspector.js';

const HEX_WIDTH = 39; // 16 bytes as 8 groups of 4 digits with 7 spaces between them

function xxdLine(address: number, bytes: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0 && i % 2 === 0) hex += ' ';
    hex += bytes[i].toString(16).padStart(2, '0');
  }
  return `${address.toString(16).padStart(8, '0')}: ${hex.padEnd(HEX_WIDTH)}  ${asciiPreview(bytes)}`;
}

/** The dump of `bytes`, which were read at `offset`; lines start at `offset`, 16 bytes each. */
export function xxd(bytes: Uint8Array, offset: number): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) lines.push(xxdLine(offset + i, bytes.subarray(i, i + 16)));
  return lines.join('\n');
}
