import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongFilesFirst from './tests/long-files-first';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core and one more. Vitest's own default leaves a core free, which on a
    // two-core machine ran the suites one file at a time. Files spend part of their time waiting
    // on a server, a socket, a timer or the PostgreSQL process beside them: two at once kept 1.3
    // of two cores busy. On two cores the suite took 300 s with three files at once against
    // 332 s with two (medians of two runs each, in turn), and 315 s with four (one run).
    maxWorkers: availableParallelism() + 1,
    // A worker process runs its files one after another in the same module graph instead of
    // loading the server, drizzle and PGlite again for every file: that loading was 126 s of
    // the 590 s of CPU the suite took. Files share module-level state, so a file that stubs a
    // global or a timer puts it back in its own afterEach (the two below are a net for any
    // that forgets).
    isolate: false,
    unstubGlobals: true,
    unstubEnvs: true,
    sequence: { sequencer: LongFilesFirst },
  },
});
