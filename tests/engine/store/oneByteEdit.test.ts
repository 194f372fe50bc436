import { spawnSync } from 'node:child_process';
import { chmod, link, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateFileError } from '../../../engine/store/stateFile.js';
import { writeOneByteEdit } from '../../../engine/store/oneByteEdit.js';
import { useTempFolders } from '../../support/tempFolder.js';

const posix = process.platform !== 'win32';
const before = '- [ ] 1. Parse\n- [ ] 2. Categorise — é\n';
const ticked = before.replace('- [ ] 2.', '- [x] 2.');

describe('writeOneByteEdit', () => {
  const tempFolder = useTempFolders('rpi-one-byte-');
  const planFile = async (text = before) => {
    const file = path.join(await tempFolder(), 'plan.md');
    await writeFile(file, text);
    return file;
  };

  it('writes the one byte that differs into the same file, past multi-byte text', async () => {
    const file = await planFile();
    const { ino } = await stat(file);
    expect(await writeOneByteEdit(file, before, ticked)).toBe(true);
    expect(await readFile(file, 'utf8')).toBe(ticked);
    expect((await stat(file)).ino).toBe(ino);
  });

  it('leaves the file alone for an edit of more than one byte, of another length, or of none', async () => {
    const file = await planFile();
    for (const after of [before.replace(/\[ \]/g, '[x]'), `${ticked}- [ ] 3. More\n`, before]) {
      expect(await writeOneByteEdit(file, before, after)).toBe(false);
      expect(await readFile(file, 'utf8')).toBe(before);
    }
  });

  it('leaves a file that no longer holds the text it was read as, or has grown, or is gone', async () => {
    const changed = await planFile(before.replace('Parse', 'Prase'));
    expect(await writeOneByteEdit(changed, before, ticked)).toBe(false);
    expect(await readFile(changed, 'utf8')).toBe(before.replace('Parse', 'Prase'));
    const grown = await planFile(`${before}more`);
    expect(await writeOneByteEdit(grown, before, ticked)).toBe(false);
    expect(await readFile(grown, 'utf8')).toBe(`${before}more`);
    expect(await writeOneByteEdit(path.join(await tempFolder(), 'missing.md'), before, ticked)).toBe(false);
  });

  it.runIf(posix)('refuses a symlink or a hard link shared with another file, writing nothing through either', async () => {
    const folder = await tempFolder();
    const outside = path.join(await tempFolder(), 'outside.md');
    await writeFile(outside, before);
    await symlink(outside, path.join(folder, 'linked.md'));
    await link(outside, path.join(folder, 'hard.md'));
    await expect(writeOneByteEdit(path.join(folder, 'linked.md'), before, ticked)).rejects.toThrow(StateFileError);
    await expect(writeOneByteEdit(path.join(folder, 'hard.md'), before, ticked)).rejects.toThrow(/hard link shared with 1 other name/);
    expect(await readFile(outside, 'utf8')).toBe(before);
  });

  it('leaves a file larger than a synchronous read takes to the whole-file write', async () => {
    const long = `${before}${'- [ ] 3. Another step\n'.repeat(4000)}`;
    const file = await planFile(long);
    expect(await writeOneByteEdit(file, long, long.replace('- [ ] 2.', '- [x] 2.'))).toBe(false);
    expect(await readFile(file, 'utf8')).toBe(long);
  });

  // A read-only or immutable plan.md may still be replaced by a rename (the folder is writable): the edit
  // is left to that. Immutable (chattr +i) is the one such file root cannot write either.
  const immutable = spawnSync('chattr', ['--help']).error ? 'chattr is not installed' : null;
  it.skipIf(immutable !== null || !posix)(`leaves a file it may not open for writing to the whole-file write${immutable ? ` (skipped: ${immutable})` : ''}`, async () => {
    const file = await planFile();
    if (spawnSync('chattr', ['+i', file]).status !== 0) {
      console.log('oneByteEdit: this file system has no immutable attribute; only the read-only mode is tried');
      await chmod(file, 0o444);
    }
    try {
      const result = await writeOneByteEdit(file, before, ticked);
      // root opens a read-only (0444) file for writing all the same: then the edit is made in place.
      expect(await readFile(file, 'utf8')).toBe(result ? ticked : before);
      if (process.getuid?.() !== 0) expect(result).toBe(false);
    } finally {
      spawnSync('chattr', ['-i', file]);
    }
  });
});
