import path from 'node:path';

/** The command names Chromium, Chrome and Edge install on PATH, in the order they are preferred. */
export function chromiumCommandNames(platform: NodeJS.Platform): string[] {
  const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge'];
  return platform === 'win32' ? [...names, 'chrome', 'msedge'] : names;
}

/** Where the system browsers install themselves when they are not on PATH, in the order they are preferred. */
export function chromiumInstallPaths(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string[] {
  if (platform === 'darwin') {
    const apps = [
      'Chromium.app/Contents/MacOS/Chromium',
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    ];
    return ['/Applications', path.posix.join(home, 'Applications')].flatMap((folder) => apps.map((app) => path.posix.join(folder, app)));
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.ProgramFiles, env['ProgramFiles(x86)']].filter((root): root is string => Boolean(root));
    const apps = ['Chromium\\Application\\chrome.exe', 'Google\\Chrome\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe'];
    return apps.flatMap((app) => roots.map((root) => path.win32.join(root, app)));
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/opt/microsoft/msedge/msedge',
  ];
}
