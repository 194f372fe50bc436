import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium, type ChromiumSearch } from '../../../e2e/chromium/findChromium.js';
import { probeFile } from '../../../e2e/chromium/probeFile.js';
import { useTempFolders } from '../../support/tempFolder.js';

const playwrightBuild = '/home/dev/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';
const install = () => 'apt-get install chromium';
const howToFix = 'Install one with `apt-get install chromium`, or set RPI_CHROMIUM to the path of a Chromium or Chrome executable.';

/** A search that sees only the temp folders' real files plus the `installed` paths, never this machine's browsers. */
function searchWith(options: { env?: NodeJS.ProcessEnv; installed?: string[]; platform?: NodeJS.Platform; home?: string }): ChromiumSearch {
  const installed = new Set(options.installed ?? []);
  return {
    env: options.env ?? {},
    platform: options.platform ?? 'linux',
    home: options.home ?? '/home/dev',
    probe: (file) => (installed.has(file) ? 'executable' : file.startsWith('/tmp') ? probeFile(file) : 'missing'),
    playwrightChromium: () => playwrightBuild,
    install,
  };
}

describe('findChromium: the browser the e2e tests drive', () => {
  const tempFolder = useTempFolders('rpi-find-chromium-');

  async function executable(folder: string, name: string, mode = 0o755): Promise<string> {
    const file = path.join(folder, name);
    await mkdir(folder, { recursive: true });
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, mode);
    return file;
  }

  it('RPI_CHROMIUM comes first, before a browser on PATH', async () => {
    const root = await tempFolder();
    const chosen = await executable(path.join(root, 'opt'), 'my-chrome');
    await executable(path.join(root, 'bin'), 'chromium');
    const search = searchWith({ env: { RPI_CHROMIUM: chosen, PATH: path.join(root, 'bin') }, installed: ['/usr/bin/chromium'] });
    expect(findChromium(search)).toEqual({ found: true, path: chosen });
  });

  it('RPI_CHROMIUM at a missing file is reported as such, and no other browser stands in for it', async () => {
    const root = await tempFolder();
    await executable(path.join(root, 'bin'), 'chromium');
    const missing = path.join(root, 'no-such-chrome');
    const search = searchWith({ env: { RPI_CHROMIUM: missing, PATH: path.join(root, 'bin') }, installed: ['/usr/bin/chromium'] });
    expect(findChromium(search)).toEqual({
      found: false,
      message: `No Chromium for the end-to-end tests: RPI_CHROMIUM is ${missing}, which does not exist.\n${howToFix}`,
    });
  });

  it('RPI_CHROMIUM at a folder or a file without the execute bit is not an executable file', async () => {
    const root = await tempFolder();
    const plain = await executable(root, 'chrome.txt', 0o644);
    for (const chosen of [root, plain]) {
      expect(findChromium(searchWith({ env: { RPI_CHROMIUM: chosen } }))).toEqual({
        found: false,
        message: `No Chromium for the end-to-end tests: RPI_CHROMIUM is ${chosen}, which is not an executable file.\n${howToFix}`,
      });
    }
  });

  it('finds a browser on PATH like a shell would: the first folder holding an executable of that name', async () => {
    const root = await tempFolder();
    await executable(path.join(root, 'first'), 'chromium', 0o644);
    const second = await executable(path.join(root, 'second'), 'chromium');
    const search = searchWith({ env: { PATH: [path.join(root, 'empty'), path.join(root, 'first'), path.join(root, 'second')].join(':') } });
    expect(findChromium(search)).toEqual({ found: true, path: second });
  });

  it('prefers the names in order — chromium, chromium-browser, google-chrome, google-chrome-stable, microsoft-edge — whatever folder they are in', async () => {
    const root = await tempFolder();
    const early = path.join(root, 'early');
    const late = path.join(root, 'late');
    const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge'];
    const found: string[] = [];
    for (const [index, name] of [...names].reverse().entries()) {
      await executable(index % 2 === 0 ? late : early, name);
      const result = findChromium(searchWith({ env: { PATH: `${early}:${late}` } }));
      found.push(result.found ? path.basename(result.path) : 'none');
    }
    expect(found).toEqual([...names].reverse());
  });

  it('then the usual install paths, then the Chromium Playwright installed', async () => {
    const root = await tempFolder();
    const onPath = await executable(path.join(root, 'bin'), 'google-chrome-stable');
    const everything = ['/opt/google/chrome/chrome', '/usr/bin/microsoft-edge', playwrightBuild];
    expect(findChromium(searchWith({ env: { PATH: path.join(root, 'bin') }, installed: everything }))).toEqual({ found: true, path: onPath });
    expect(findChromium(searchWith({ installed: everything }))).toEqual({ found: true, path: '/opt/google/chrome/chrome' });
    expect(findChromium(searchWith({ installed: [playwrightBuild] }))).toEqual({ found: true, path: playwrightBuild });
  });

  it("macOS: the app bundles in /Applications and ~/Applications", () => {
    const chrome = '/Users/dev/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    const search = searchWith({ platform: 'darwin', home: '/Users/dev', installed: [chrome] });
    expect(findChromium(search)).toEqual({ found: true, path: chrome });
  });

  it('Windows: chrome.exe or msedge.exe on Path, then under Program Files and LOCALAPPDATA', () => {
    const env = { Path: 'C:\\tools;C:\\bin', ProgramFiles: 'C:\\Program Files', 'ProgramFiles(x86)': 'C:\\Program Files (x86)', LOCALAPPDATA: 'C:\\Users\\dev\\AppData\\Local' };
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    const chromeOnPath = 'C:\\bin\\chrome.exe';
    expect(findChromium(searchWith({ platform: 'win32', env, installed: [edge] }))).toEqual({ found: true, path: edge });
    expect(findChromium(searchWith({ platform: 'win32', env, installed: [edge, chromeOnPath] }))).toEqual({ found: true, path: chromeOnPath });
  });

  it('with nothing anywhere, says what is missing, the command that installs one, and RPI_CHROMIUM', () => {
    expect(findChromium(searchWith({}))).toEqual({
      found: false,
      message:
        "No Chromium for the end-to-end tests: RPI_CHROMIUM is not set, and no Chromium, Chrome or Edge is on PATH, in the usual install folders or among Playwright's browsers.\n" +
        howToFix,
    });
  });

  it('RPI_CHROMIUM_SEARCH=off looks at RPI_CHROMIUM only', () => {
    const search = searchWith({ env: { RPI_CHROMIUM_SEARCH: 'off' }, installed: ['/usr/bin/chromium', playwrightBuild] });
    expect(findChromium(search)).toEqual({
      found: false,
      message: `No Chromium for the end-to-end tests: RPI_CHROMIUM is not set, and RPI_CHROMIUM_SEARCH=off turns the search off.\n${howToFix}`,
    });
  });

  it('names who needs the browser', () => {
    const result = findChromium({ ...searchWith({}), usedBy: 'the renderer bench' });
    expect(result.found ? '' : result.message).toMatch(/^No Chromium for the renderer bench: /);
  });
});
