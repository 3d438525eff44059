// Kept for the core's import path: the formatter lives in the kit (src/kit/zod-issues.ts).
export * from '../kit/zod-issues.js';
