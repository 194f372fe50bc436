import { chmod, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deleteFile } from '../../../engine/tools/deleteFile.js';
import { editFile } from '../../../engine/tools/editFile.js';
import { getFileInfo } from '../../../engine/tools/getFileInfo.js';
import { moveFile } from '../../../engine/tools/moveFile.js';
import { readFile as readFileTool } from '../../../engine/tools/readFile.js';
import { writeFile as writeFileTool } from '../../../engine/tools/writeFile.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { runTool, toolContextFor } from '../../support/toolContext.js';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

describe('read_file', () => {
  const tempFolder = useTempFolders();

  it('shows the file with line numbers and the total line count', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'src/app.ts': 'const a = 1;\r\nconst b = 2;\n\nexport { a, b };' });
    const result = await runTool(readFileTool, { path: 'src/app.ts' }, await toolContextFor(root));
    expect(result).toBe(['src/app.ts: lines 1–4 of 4', '1\tconst a = 1;', '2\tconst b = 2;', '3\t', '4\texport { a, b };'].join('\n'));
  });

  it('pages with offset and limit, and says where to read on', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'big.txt': Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n' });
    const context = await toolContextFor(root);

    const first = await runTool(readFileTool, { path: 'big.txt' }, context);
    const page = await runTool(readFileTool, { path: 'big.txt', offset: 4999, limit: 10 }, context);

    expect(first.split('\n')[0]).toBe('big.txt: lines 1–2000; more lines follow (read on with offset 2001)');
    expect(first.split('\n')).toHaveLength(2001);
    expect(first.split('\n').at(-1)).toBe('2000\tline 2000');
    expect(page).toBe('big.txt: lines 4999–5000 of 5000\n4999\tline 4999\n5000\tline 5000');
    await expect(runTool(readFileTool, { path: 'big.txt', offset: 6000 }, context)).rejects.toThrow('big.txt has 5000 lines; offset 6000 is past the end.');
  });

  it('refuses binary files, naming their type and size', async () => {
    const root = await tempFolder();
    await writeFile(path.join(root, 'logo.png'), Buffer.concat([png, Buffer.alloc(2048, 1)]));
    await writeFile(path.join(root, 'blob.bin'), Buffer.from([65, 66, 0, 67]));
    const context = await toolContextFor(root);
    await expect(runTool(readFileTool, { path: 'logo.png' }, context)).rejects.toThrow('logo.png is a binary file (PNG image, 2.0 KB); read_file shows text files only.');
    await expect(runTool(readFileTool, { path: 'blob.bin' }, context)).rejects.toThrow('blob.bin is a binary file (binary data, 4 B)');
  });

  it('shows invalid UTF-8 with replacement characters instead of failing', async () => {
    const root = await tempFolder();
    await writeFile(path.join(root, 'latin1.txt'), Buffer.from('caf\xe9 ok\nnext\n', 'latin1'));
    const result = await runTool(readFileTool, { path: 'latin1.txt' }, await toolContextFor(root));
    expect(result).toContain('not valid UTF-8');
    expect(result).toContain('1\tcaf\uFFFD ok');
    expect(result).toContain('2\tnext');
  });

  it('cuts very long lines and says how much was left out', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'min.js': 'x'.repeat(5000) });
    const result = await runTool(readFileTool, { path: 'min.js' }, await toolContextFor(root));
    expect(result).toContain('… (3000 more characters on this line)');
  });

  it('explains missing files, folders and empty files', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'empty.txt': '', 'dir/a.txt': 'a' });
    const context = await toolContextFor(root);
    await expect(runTool(readFileTool, { path: 'nope.txt' }, context)).rejects.toThrow('nope.txt does not exist.');
    await expect(runTool(readFileTool, { path: 'dir' }, context)).rejects.toThrow('dir is a folder, not a file.');
    expect(await runTool(readFileTool, { path: 'empty.txt' }, context)).toBe('empty.txt is empty (0 lines).');
  });
});

describe('get_file_info', () => {
  const tempFolder = useTempFolders();

  it('reports size, line count, binary kind, folders and .gitignore status', async () => {
    const root = await tempFolder();
    await writeTree(root, { '.gitignore': '*.log\n', 'notes.md': 'a\nb\nc', 'debug.log': 'x\n', 'src/a.ts': '', 'src/b.ts': '' });
    await writeFile(path.join(root, 'logo.png'), png);
    const context = await toolContextFor(root);

    const notes = await runTool(getFileInfo, { path: 'notes.md' }, context);
    expect(notes.split('\n')[0]).toBe('notes.md: text file, 5 B (5 bytes), 3 lines');
    expect(notes).toMatch(/modified \d{4}-\d\d-\d\dT/);
    expect(notes).not.toContain('ignored');
    expect(await runTool(getFileInfo, { path: 'debug.log' }, context)).toContain('ignored by .gitignore');
    expect(await runTool(getFileInfo, { path: 'logo.png' }, context)).toContain('logo.png: binary file, PNG image, 16 B');
    expect(await runTool(getFileInfo, { path: 'src' }, context)).toContain('src: folder with 2 entries');
    await expect(runTool(getFileInfo, { path: 'missing' }, context)).rejects.toThrow('missing does not exist.');
  });
});

describe('write_file', () => {
  const tempFolder = useTempFolders();

  it('creates parent folders, then replaces the file whole, keeping its permissions', async () => {
    const root = await tempFolder();
    const context = await toolContextFor(root);

    expect(await runTool(writeFileTool, { path: 'a/b/c.txt', content: 'one\ntwo\n' }, context)).toBe('Created a/b/c.txt (2 lines, 8 B).');
    await chmod(path.join(root, 'a/b/c.txt'), 0o755);
    expect(await runTool(writeFileTool, { path: 'a/b/c.txt', content: 'three' }, context)).toBe('Replaced a/b/c.txt (1 line, 5 B).');

    expect(await readFile(path.join(root, 'a/b/c.txt'), 'utf8')).toBe('three');
    expect((await stat(path.join(root, 'a/b/c.txt'))).mode & 0o777).toBe(0o755);
    expect(await readdir(path.join(root, 'a/b'))).toEqual(['c.txt']);
  });

  it('refuses to write over a folder', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'dir/x.txt': 'x' });
    await expect(runTool(writeFileTool, { path: 'dir', content: 'y' }, await toolContextFor(root))).rejects.toThrow('Refused path "dir": it is a folder, not a file.');
  });
});

describe('edit_file', () => {
  const tempFolder = useTempFolders();

  it('replaces text that occurs exactly once', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'app.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
    const result = await runTool(editFile, { path: 'app.ts', old_text: 'const b = 2;\n', new_text: 'const b = 20;\nconst bb = 21;\n' }, await toolContextFor(root));
    expect(result).toBe('Edited app.ts: replaced 2 line(s) at line 2 with 3 line(s).');
    expect(await readFile(path.join(root, 'app.ts'), 'utf8')).toBe('const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n');
  });

  it('says how many matches there are and where, and changes nothing', async () => {
    const root = await tempFolder();
    const original = 'x = 1\ny = 2\nx = 1\nz = 3\nx = 1\n';
    await writeTree(root, { 'vars.py': original });
    await expect(runTool(editFile, { path: 'vars.py', old_text: 'x = 1', new_text: 'x = 9' }, await toolContextFor(root))).rejects.toThrow(
      'old_text matches 3 times in vars.py (at lines 1, 3, 5); it must match exactly once.',
    );
    expect(await readFile(path.join(root, 'vars.py'), 'utf8')).toBe(original);
  });

  it('says when the text is missing, and points at a match that differs only in whitespace', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'f.js': 'function f() {\n    return 1;\n}\n' });
    const context = await toolContextFor(root);
    await expect(runTool(editFile, { path: 'f.js', old_text: 'return 2;', new_text: 'x' }, context)).rejects.toThrow(
      'old_text was not found in f.js. Read the file again and copy the exact current text',
    );
    await expect(runTool(editFile, { path: 'f.js', old_text: 'function f() {\n  return 1;\n}', new_text: 'x' }, context)).rejects.toThrow(
      'differs only in whitespace or indentation starts at line 1',
    );
  });

  it('matches and keeps CRLF line endings', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'win.txt': 'one\r\ntwo\r\nthree\r\n' });
    await runTool(editFile, { path: 'win.txt', old_text: 'two\nthree', new_text: '2\n3' }, await toolContextFor(root));
    expect(await readFile(path.join(root, 'win.txt'), 'utf8')).toBe('one\r\n2\r\n3\r\n');
  });

  it('refuses empty old_text, no-op edits, binary files and missing files', async () => {
    const root = await tempFolder();
    await writeFile(path.join(root, 'logo.png'), png);
    const context = await toolContextFor(root);
    await expect(runTool(editFile, { path: 'a', old_text: '', new_text: 'x' }, context)).rejects.toThrow('old_text is empty');
    await expect(runTool(editFile, { path: 'a', old_text: 'x', new_text: 'x' }, context)).rejects.toThrow('nothing to change');
    await expect(runTool(editFile, { path: 'logo.png', old_text: 'PNG', new_text: 'x' }, context)).rejects.toThrow('logo.png is a binary file');
    await expect(runTool(editFile, { path: 'none.txt', old_text: 'a', new_text: 'b' }, context)).rejects.toThrow('none.txt does not exist. Use write_file to create it.');
  });
});

describe('delete_file and move_file', () => {
  const tempFolder = useTempFolders();

  it('deletes a file, or a folder with its contents', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'abc', 'dir/x.txt': 'x', 'dir/y/z.txt': 'z' });
    const context = await toolContextFor(root);
    expect(await runTool(deleteFile, { path: 'a.txt' }, context)).toBe('Deleted a.txt (3 B).');
    expect(await runTool(deleteFile, { path: 'dir' }, context)).toBe('Deleted folder dir/ (2 entries).');
    expect(await readdir(root)).toEqual([]);
    await expect(runTool(deleteFile, { path: 'a.txt' }, context)).rejects.toThrow('a.txt does not exist, so there is nothing to delete.');
  });

  it('deletes a symlink inside the folder, not what it points to', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'real.txt': 'keep' });
    await symlink('real.txt', path.join(root, 'alias.txt'));
    expect(await runTool(deleteFile, { path: 'alias.txt' }, await toolContextFor(root))).toBe('Deleted symlink alias.txt (what it points to is kept).');
    expect(await readdir(root)).toEqual(['real.txt']);
  });

  it('moves into new folders and never overwrites', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'a', 'b.txt': 'b', 'dir/c.txt': 'c' });
    const context = await toolContextFor(root);
    expect(await runTool(moveFile, { from: 'a.txt', to: 'new/deep/a.txt' }, context)).toBe('Moved a.txt to new/deep/a.txt.');
    expect(await readFile(path.join(root, 'new/deep/a.txt'), 'utf8')).toBe('a');
    await expect(runTool(moveFile, { from: 'b.txt', to: 'dir/c.txt' }, context)).rejects.toThrow('something already exists there');
    await expect(runTool(moveFile, { from: 'dir', to: 'dir/inner' }, context)).rejects.toThrow('a folder cannot be moved into itself');
    await expect(runTool(moveFile, { from: 'gone.txt', to: 'x.txt' }, context)).rejects.toThrow('gone.txt does not exist');
    expect(await readFile(path.join(root, 'dir/c.txt'), 'utf8')).toBe('c');
  });
});
