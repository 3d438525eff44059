// What one file map covers: shared by the pool (main thread) and its workers.
export interface MapRange {
  file: string;
  dev: string;
  ino: string;
  /** First byte mapped, and the exclusive end. */
  start: number;
  end: number;
  blockSize: number;
  /** Blocks per task: one worker reads that many consecutive blocks before posting. */
  blocksPerTask: number;
  bufferBytes: number;
}

export function blockCount(r: Pick<MapRange, 'start' | 'end' | 'blockSize'>): number {
  return Math.ceil((r.end - r.start) / r.blockSize);
}
