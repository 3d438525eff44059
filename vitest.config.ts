import { defineConfig } from 'vitest/config';

// Two projects for everyday work (`npm run test:unit`, `npm run test:e2e`); `npm test` runs both.
// e2e: test/e2e and test/deploy start the real binary (and nginx) for every case. unit: the rest,
// in-process through the SDK's in-memory transport or the one-shot core, with real child processes
// and sockets where a backend needs them (a few of their cases start the CLI too).
const E2E = ['test/e2e/**/*.test.ts', 'test/deploy/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two cores are shared between the test workers and the children they start.
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: E2E } },
      { extends: true, test: { name: 'e2e', include: E2E } },
    ],
  },
});
