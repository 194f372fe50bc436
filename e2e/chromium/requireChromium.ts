import { findChromium } from './findChromium.js';

/**
 * Playwright's globalSetup: with no Chromium to drive, the e2e stage ends here, before any test, with
 * one message saying how to get one — not one launch failure per test.
 */
export default function requireChromium(): void {
  const chromium = findChromium();
  if (chromium.found) return;
  console.error(chromium.message);
  process.exit(1);
}
