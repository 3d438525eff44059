// The plain-text summary of every symbol (for snippets and re-ranking), as one UTF-8 byte block
// with offsets: it loads from the index file without decoding, and a string is made only for the
// few documents a search shows. Kept out of the JSON half of the index, where 24,000 strings cost
// more heap (and more garbage while parsing) than the rest of it together.

export class Summaries {
  constructor(
    readonly bytes: Uint8Array,
    /** Document → start in `bytes` (length: documents + 1). */
    readonly offsets: Uint32Array,
  ) {}

  static from(texts: readonly string[]): Summaries {
    const offsets = new Uint32Array(texts.length + 1);
    texts.forEach((t, i) => (offsets[i + 1] = offsets[i] + Buffer.byteLength(t, 'utf8')));
    const bytes = Buffer.allocUnsafe(offsets[texts.length]);
    texts.forEach((t, i) => bytes.write(t, offsets[i], 'utf8'));
    return new Summaries(bytes, offsets);
  }

  get size(): number {
    return this.offsets.length - 1;
  }

  get(id: number): string {
    const b = this.bytes;
    return Buffer.from(b.buffer, b.byteOffset + this.offsets[id], this.offsets[id + 1] - this.offsets[id]).toString('utf8');
  }
}
