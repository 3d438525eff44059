// A buffer to read large runs of a file into. glibc serves an allocation of 128 KiB or more with a
// fresh mmap, so the data starts 16 bytes past a page boundary; the page cache copies from page-aligned
// memory, and a destination 16 bytes ahead of its source (modulo 4 KiB) makes the CPU's loads and
// stores alias: reading 512 MiB from the page cache took 57 ms into such a buffer and 22–25 ms into
// the same buffer 64 bytes further on (bench/imhex.bench.js, 2-core x86 here). Starting the view at
// 64 bytes in costs nothing where the allocation lands elsewhere.
// search-pool.ts's worker does the same inline: its source runs alone in the thread.
const READ_BUFFER_SHIFT = 64;

export function readBuffer(bytes: number): Buffer {
  return Buffer.allocUnsafe(bytes + READ_BUFFER_SHIFT).subarray(READ_BUFFER_SHIFT);
}
