// Kept for the core's import path: the schema reader lives in the kit (src/kit/zod-introspect.ts).
export * from '../kit/zod-introspect.js';
