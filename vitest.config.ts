import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most tests spawn the real CLI; two cores are shared between the workers and the children.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
