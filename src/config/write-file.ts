// Config files are written by the kit's atomic writer (src/kit/atomic-write.ts); this name is kept
// for the config modules' imports.
export { writeFileAtomicSync as writeFileAtomic } from '../kit/atomic-write.js';
