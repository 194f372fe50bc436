import { defineConfig } from '@playwright/test';
import { findChromium } from './e2e/chromium/findChromium.js';

/** The browser the tests drive; without one, `globalSetup` stops the run before any test and says how to get one. */
const chromium = findChromium();

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  globalSetup: './e2e/chromium/requireChromium.ts',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: chromium.found ? chromium.path : undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
