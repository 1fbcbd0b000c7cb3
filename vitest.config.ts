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
    // A worker process runs its files one after another in the same module graph instead of
    // loading the server, drizzle and PGlite again for every file: that loading was 126 s of
    // the 590 s of CPU the suite took. Files share module-level state, so a file that stubs a
    // global or a timer puts it back in its own afterEach (the two below are a net for any
    // that forgets).
    isolate: false,
    unstubGlobals: true,
    unstubEnvs: true,
  },
});
