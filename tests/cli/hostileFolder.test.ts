import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCli } from '../support/cliProcess.js';
import { useTempFolders } from '../support/tempFolder.js';

describe('the CLI on a folder with a planted .workbench', () => {
  const tempFolder = useTempFolders('rpi-cli-hostile-');
  const cli = useCli();

  it('history refuses with one sentence and exit 2, and the outside file the planted .gitignore points at is untouched', async () => {
    const [root, outside] = await Promise.all([tempFolder(), tempFolder()]);
    await writeFile(path.join(outside, 'config'), 'keep me\n');
    await mkdir(path.join(root, '.workbench'));
    await symlink(path.join(outside, 'config'), path.join(root, '.workbench/.gitignore'));
    const run = await cli.run(['history', root]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^rpi-workbench: Cannot open .*\.workbench\/\.gitignore is a symlink \(to .*config\)\..*remove/)]);
    expect(await readFile(path.join(outside, 'config'), 'utf8')).toBe('keep me\n');
  });
});
