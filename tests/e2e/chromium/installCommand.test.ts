import { describe, expect, it } from 'vitest';
import { installCommand, type InstallSystem } from '../../../e2e/chromium/installCommand.js';

const linux = (osRelease: string, isRoot = false): InstallSystem => ({ platform: 'linux', osRelease, hasBrew: false, isRoot });

describe('installCommand: the one command that installs a Chromium on this system', () => {
  it('Debian and its derivatives: apt-get, with sudo unless already root', () => {
    const debian = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nID=debian\n';
    expect(installCommand(linux(debian))).toBe('sudo apt-get install chromium');
    expect(installCommand(linux(debian, true))).toBe('apt-get install chromium');
    expect(installCommand(linux('ID=raspbian\nID_LIKE=debian\n'))).toBe('sudo apt-get install chromium');
  });

  it("Ubuntu and its derivatives: Playwright's own build, since apt's chromium is a snap", () => {
    expect(installCommand(linux('ID=ubuntu\nID_LIKE=debian\n'))).toBe('npx playwright install --with-deps chromium');
    expect(installCommand(linux('ID=linuxmint\nID_LIKE="ubuntu debian"\n'))).toBe('npx playwright install --with-deps chromium');
  });

  it('Fedora, Arch, Alpine and openSUSE: their package managers', () => {
    expect(installCommand(linux('ID=fedora\n'))).toBe('sudo dnf install chromium');
    expect(installCommand(linux('ID="rocky"\nID_LIKE="rhel centos fedora"\n'))).toBe('sudo dnf install chromium');
    expect(installCommand(linux('ID=arch\n'))).toBe('sudo pacman -S chromium');
    expect(installCommand(linux('ID=alpine\n', true))).toBe('apk add chromium');
    expect(installCommand(linux('ID="opensuse-tumbleweed"\nID_LIKE="opensuse suse"\n'))).toBe('sudo zypper install chromium');
  });

  it("an unknown Linux, or none described: Playwright's download", () => {
    expect(installCommand(linux('ID=gentoo\n'))).toBe('npx playwright install chromium');
    expect(installCommand(linux(''))).toBe('npx playwright install chromium');
  });

  it('macOS: Homebrew when it is there, else the Playwright download; Windows: winget', () => {
    expect(installCommand({ platform: 'darwin', osRelease: '', hasBrew: true, isRoot: false })).toBe('brew install --cask google-chrome');
    expect(installCommand({ platform: 'darwin', osRelease: '', hasBrew: false, isRoot: false })).toBe('npx playwright install chromium');
    expect(installCommand({ platform: 'win32', osRelease: '', hasBrew: false, isRoot: false })).toBe('winget install Google.Chrome');
  });
});
