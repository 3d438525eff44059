import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(REPO, 'bin/run.js');
export const FIXTURES = path.join(REPO, 'test/fixtures');
/** Real upstream data beside the clone (CI has ../shared); override with MCPHOST_SHARED_DATA. */
export const SHARED_DATA = process.env.MCPHOST_SHARED_DATA ?? path.resolve(REPO, '../shared/data');
export const KITCHEN = path.join(FIXTURES, 'kitchen/index.js');
