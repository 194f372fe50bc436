import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Two at a time even on two cores (vitest's default there is one): most tests wait on child processes,
    // servers and disk, so the suite took 583 s instead of 917 s on a two-core machine.
    maxWorkers: 2,
  },
});
