/** What the install command depends on: the system, its /etc/os-release, and whether Homebrew is there. */
export interface InstallSystem {
  platform: NodeJS.Platform;
  osRelease: string;
  hasBrew: boolean;
  isRoot: boolean;
}

const playwrightInstall = 'npx playwright install chromium';

/** The one command that installs a Chromium the e2e tests can drive on this system. */
export function installCommand(system: InstallSystem): string {
  if (system.platform === 'win32') return 'winget install Google.Chrome';
  if (system.platform === 'darwin') return system.hasBrew ? 'brew install --cask google-chrome' : playwrightInstall;
  if (system.platform !== 'linux') return playwrightInstall;
  const sudo = system.isRoot ? '' : 'sudo ';
  const family = linuxFamily(system.osRelease);
  // Ubuntu's apt chromium is a snap, whose confinement keeps it out of the profile folders Playwright makes.
  if (family.includes('ubuntu')) return 'npx playwright install --with-deps chromium';
  if (family.includes('debian')) return `${sudo}apt-get install chromium`;
  if (family.some((id) => ['fedora', 'rhel', 'centos'].includes(id))) return `${sudo}dnf install chromium`;
  if (family.includes('arch')) return `${sudo}pacman -S chromium`;
  if (family.includes('alpine')) return `${sudo}apk add chromium`;
  if (family.some((id) => id.startsWith('opensuse') || id === 'suse')) return `${sudo}zypper install chromium`;
  return playwrightInstall;
}

/** ID followed by ID_LIKE of an os-release file, e.g. `['linuxmint', 'ubuntu', 'debian']`. */
function linuxFamily(osRelease: string): string[] {
  const value = (key: string) => new RegExp(`^${key}=["']?([^"'\\n]*)`, 'm').exec(osRelease)?.[1] ?? '';
  return `${value('ID')} ${value('ID_LIKE')}`.toLowerCase().split(/\s+/).filter(Boolean);
}
