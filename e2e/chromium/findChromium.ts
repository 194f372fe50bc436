import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { chromium } from '@playwright/test';
import { chromiumCommandNames, chromiumInstallPaths } from './chromiumCandidates.js';
import { installCommand } from './installCommand.js';
import { probeFile, type FileProbe } from './probeFile.js';
import { searchPath } from './searchPath.js';

/**
 * Where to look. Everything defaults to this machine; tests pass their own. `RPI_CHROMIUM_SEARCH=off`
 * in `env` limits the search to `RPI_CHROMIUM`, so a test can see the no-browser path on any machine.
 */
export interface ChromiumSearch {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
  probe?: (file: string) => FileProbe;
  /** Where `npx playwright install chromium` puts this Playwright's Chromium. */
  playwrightChromium?: () => string | undefined;
  /** Who needs the browser, for the message when none is found. */
  usedBy?: string;
  /** The command that installs a Chromium here, named in the message when none is found. */
  install?: () => string;
}

export type ChromiumLookup = { found: true; path: string } | { found: false; message: string };

/** The Chromium the e2e tests and the renderer bench drive: `RPI_CHROMIUM`, then system browsers, then Playwright's. */
export function findChromium(search: ChromiumSearch = {}): ChromiumLookup {
  const env = search.env ?? process.env;
  const platform = search.platform ?? process.platform;
  const probe = search.probe ?? probeFile;
  const missing = (what: string): ChromiumLookup => {
    const install = search.install?.() ?? installHere(env, platform);
    return { found: false, message: missingMessage({ usedBy: search.usedBy ?? 'the end-to-end tests', what, install }) };
  };

  const chosen = env.RPI_CHROMIUM;
  if (chosen) {
    const state = probe(chosen);
    if (state === 'executable') return { found: true, path: chosen };
    return missing(`RPI_CHROMIUM is ${chosen}, which ${state === 'missing' ? 'does not exist' : 'is not an executable file'}`);
  }
  if (env.RPI_CHROMIUM_SEARCH === 'off') return missing('RPI_CHROMIUM is not set, and RPI_CHROMIUM_SEARCH=off turns the search off');

  const candidates = [
    ...chromiumCommandNames(platform).map((name) => searchPath(name, { env, platform, probe })),
    ...chromiumInstallPaths(platform, env, search.home ?? os.homedir()),
    (search.playwrightChromium ?? playwrightChromium)(),
  ];
  const found = candidates.find((file) => file !== undefined && probe(file) === 'executable');
  if (found) return { found: true, path: found };
  return missing("RPI_CHROMIUM is not set, and no Chromium, Chrome or Edge is on PATH, in the usual install folders or among Playwright's browsers");
}

function missingMessage({ usedBy, what, install }: { usedBy: string; what: string; install: string }): string {
  return [
    `No Chromium for ${usedBy}: ${what}.`,
    `Install one with \`${install}\`, or set RPI_CHROMIUM to the path of a Chromium or Chrome executable.`,
  ].join('\n');
}

function playwrightChromium(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined; // a platform Playwright has no build for
  }
}

function installHere(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  const osRelease = platform === 'linux' && existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
  const hasBrew = searchPath('brew', { env, platform, probe: probeFile }) !== undefined;
  return installCommand({ platform, osRelease, hasBrew, isRoot: process.getuid?.() === 0 });
}
