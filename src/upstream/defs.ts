// Kept for the core's import path: the mirror's definitions live in the kit (src/kit/mcp/defs.ts).
export { globMatcher } from '../kit/mcp/defs.js';
