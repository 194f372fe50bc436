import { randomBytes } from 'node:crypto';
import { readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFolders } from '../../support/tempFolder.js';
import { projectWith, runTag, sha256, storedPath } from './checkpointFixture.js';
import { folderDigest } from './folderDigest.js';

const objectPath = (root: string, content: string | Buffer) => storedPath(root, 'objects', sha256(content));
const sizeOf = (file: string) => stat(file).then((stats) => stats.size, () => null);

describe('checkpoint contents are stored compressed where that pays', () => {
  const tempFolder = useTempFolders('rpi-compress-');

  it('gzips text, keeps already-compressed bytes as they are, streams large files, and restores every one byte for byte', async () => {
    const text = 'export const row = combine(table, 42, "a row of a module");\n'.repeat(400);
    const noise = randomBytes(50_000);
    const large = Buffer.from('date,amount,category\n' + '2026-01-02,-12.50,groceries\n'.repeat(120_000));
    const { root, store } = await projectWith(tempFolder, { 'src/module.ts': text });
    await writeFile(path.join(root, 'photo.jpg'), noise);
    await writeFile(path.join(root, 'statement.csv'), large);
    const original = await folderDigest(root);
    const checkpoint = await store.snapshot(runTag);

    expect(await sizeOf(objectPath(root, text))).toBeNull();
    expect(await sizeOf(`${objectPath(root, text)}.gz`)).toBeLessThan(text.length / 10);
    expect(await sizeOf(objectPath(root, noise))).toBe(noise.length);
    expect(await sizeOf(`${objectPath(root, large)}.gz`)).toBeLessThan(large.length / 10);

    await writeFile(path.join(root, 'src/module.ts'), 'changed\n');
    await writeFile(path.join(root, 'photo.jpg'), 'not a photo');
    await writeFile(path.join(root, 'statement.csv'), 'gone');
    await store.restore(checkpoint.id);
    expect(await folderDigest(root)).toEqual(original);
    // Compared by hash: a deep equality walks a 3 MB Buffer index by index, for seconds.
    expect(sha256(await readFile(path.join(root, 'statement.csv')))).toBe(sha256(large));
  });

  it('refuses a restore, changing nothing, when a gzipped content was cut short', async () => {
    const text = 'a line of text that compresses well\n'.repeat(200);
    const { root, store } = await projectWith(tempFolder, { 'a.txt': text, 'b.txt': 'b\n' });
    const checkpoint = await store.snapshot(runTag);
    const stored = `${objectPath(root, text)}.gz`;
    await truncate(stored, (await stat(stored)).size - 6);
    await writeFile(path.join(root, 'a.txt'), 'edited\n');
    await writeFile(path.join(root, 'b.txt'), 'edited\n');

    await expect(store.restore(checkpoint.id)).rejects.toThrow(/incomplete|damaged/);
    expect(await readFile(path.join(root, 'b.txt'), 'utf8')).toBe('edited\n');
  });
});
