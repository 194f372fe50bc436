import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBin } from '../support/cliProcess.js';
import { useTempFolders } from '../support/tempFolder.js';

const nobody = ['--reuid=65534', '--regid=65534', '--clear-groups'];

/** Why a command cannot be run as another user here, or null when it can (root, setpriv, and the CLI readable by that user). */
function cannotRunAsNobody(): string | null {
  if (process.getuid?.() !== 0) return 'the tests do not run as root, so they cannot run a command as another user';
  try {
    execFileSync('setpriv', [...nobody, process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(cliBin)})`], { stdio: 'ignore' });
    return null;
  } catch {
    return 'setpriv is missing, or the user nobody cannot read the built CLI in this checkout';
  }
}

const reason = cannotRunAsNobody();
if (reason) console.log(`readOnlyStateFolder.test.ts skipped: ${reason}`);

// A .workbench/ the user may not write (made by another user, or read-only) is said in one sentence, exit 2,
// not as the system's EACCES naming a /proc/self/fd path.
describe.skipIf(reason !== null)('a .workbench the user may not write', () => {
  const tempFolder = useTempFolders('rpi-read-only-state-');

  it.each(['history', 'diff'])('%s refuses with one sentence naming it, exit 2', async (command) => {
    const root = await tempFolder();
    await writeFile(path.join(root, 'a.txt'), 'hi\n');
    await mkdir(path.join(root, '.workbench'), { mode: 0o755 });
    await chmod(root, 0o777);
    const ran = spawnSync('setpriv', [...nobody, process.execPath, cliBin, command, root], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: root, RPI_WORKBENCH_CONFIG_DIR: path.join(root, 'config') },
    });
    expect(ran.stderr.trim()).toBe(
      `rpi-workbench: Cannot use ${path.join(root, '.workbench')}: permission denied. The workbench keeps its lock, history and checkpoints there; give your user write access to it.`,
    );
    expect(ran.status).toBe(2);
  });
});
