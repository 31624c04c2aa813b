import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most files wait on child processes and sockets more than they compute: three at a time keep
    // both cores busy (vitest's default on two cores is one file at a time: 304 s against 211 s).
    maxWorkers: 3,
  },
});
