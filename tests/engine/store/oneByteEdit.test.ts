import { link, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateFileError } from '../../../engine/store/stateFile.js';
import { writeOneByteEdit } from '../../../engine/store/oneByteEdit.js';
import { useTempFolders } from '../../support/tempFolder.js';

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

  it('refuses a symlink or a hard link shared with another file, writing nothing through either', async () => {
    const folder = await tempFolder();
    const outside = path.join(await tempFolder(), 'outside.md');
    await writeFile(outside, before);
    await symlink(outside, path.join(folder, 'linked.md'));
    await link(outside, path.join(folder, 'hard.md'));
    await expect(writeOneByteEdit(path.join(folder, 'linked.md'), before, ticked)).rejects.toThrow(StateFileError);
    await expect(writeOneByteEdit(path.join(folder, 'hard.md'), before, ticked)).rejects.toThrow(/hard link shared with 1 other name/);
    expect(await readFile(outside, 'utf8')).toBe(before);
  });
});
