import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    // A ceiling that catches a hang, not a measure: with two files at a time on two cores, a test that
    // starts the CLI several times (0.6 s of CPU each) shares its core and can pass 20 s without hanging.
    testTimeout: 40_000,
    hookTimeout: 40_000,
    pool: 'forks',
    // Two test files at a time even on two cores (vitest's default there is one): most tests wait on child
    // processes, servers and disk. On a two-core machine the whole suite took 917 s with one, 583-692 s with
    // two; tests/cli alone 613 s with one and 453 s with two on the same machine shared with other work.
    maxWorkers: 2,
    include: ['tests/**/*.test.{ts,tsx}'],
  },
});
