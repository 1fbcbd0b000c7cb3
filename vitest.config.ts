import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core. Vitest's own default leaves a core free, which on a two-core
    // machine ran the suites one file at a time while most of them wait on a server, a socket
    // or the PostgreSQL process beside them.
    maxWorkers: availableParallelism(),
  },
});
