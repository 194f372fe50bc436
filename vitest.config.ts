import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Two at a time even on two cores (vitest's default there is one): most tests wait on child processes,
    // servers and disk, so the suite takes 580 s instead of 920 s on the CI machine's two cores.
    maxWorkers: 2,
  },
});
