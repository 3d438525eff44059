// How big a build may be. Real builds are tens of kilobytes (the shared ones: 26-58 KB; heavy
// builds with many item sets and trees reach a few megabytes). Anything past the cap is refused at
// once, before it costs time or memory; parsing a large build runs in a worker thread.
import { ToolError } from '../../../src/backend/index.js';

/** Largest build XML accepted, in bytes (after inflating a share code, or read from a file). */
export const MAX_XML_BYTES = 16 * 1024 * 1024;
/** Build XML at least this long is parsed in a worker thread, so other requests are served meanwhile. */
export const WORKER_MIN_BYTES = 512 * 1024;
/** Heap a parse worker may use before it is stopped (about 20 bytes per byte of XML at the cap). */
export const WORKER_HEAP_MB = 1024;

const mib = (bytes: number) => `${Math.round(bytes / 1048576)} MiB`;

export function tooLarge(field: string, what: string): ToolError {
  return new ToolError(
    `${field}: too large: ${what}, and a build may be at most ${mib(MAX_XML_BYTES)} of XML (real builds are well under 1 MiB); check that this is a Path of Building build`,
    { code: 'TOO_LARGE', data: { field, limitBytes: MAX_XML_BYTES } },
  );
}
