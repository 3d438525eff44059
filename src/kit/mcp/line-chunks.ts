// Splits a byte stream into newline-terminated lines, holding at most `max` bytes of an unfinished
// line: past that the caller is told (and the partial line dropped) instead of buffering without
// end. Chunks are kept as they came and joined once per line, so a long line costs one copy.
export class LineChunks {
  readonly max: number;
  private chunks: Buffer[] = [];
  private held = 0;

  constructor(max: number) {
    this.max = max;
  }

  /** The complete lines this chunk finished (without the newline); `overflow` is the bytes held when the limit was passed. */
  push(chunk: Buffer): { lines: Buffer[]; overflow?: number } {
    const lines: Buffer[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.held + piece.length > this.max) return { lines, overflow: this.drop(piece.length) };
      lines.push(this.held === 0 ? piece : Buffer.concat([...this.chunks, piece], this.held + piece.length));
      this.chunks = [];
      this.held = 0;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0) return { lines };
    if (this.held + rest.length > this.max) return { lines, overflow: this.drop(rest.length) };
    this.chunks.push(rest);
    this.held += rest.length;
    return { lines };
  }

  private drop(more: number): number {
    const total = this.held + more;
    this.chunks = [];
    this.held = 0;
    return total;
  }
}
