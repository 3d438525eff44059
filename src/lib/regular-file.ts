// Kept for the core's import path: the reader lives in the kit (src/kit/regular-file.ts).
export * from '../kit/regular-file.js';
