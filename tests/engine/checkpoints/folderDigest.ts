import { createHash } from 'node:crypto';
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Everything under `root` except `.workbench/`, as path → what a user could tell apart: a file's sha256
 * and permission bits, a symlink's target, or a folder and its permission bits. Read with plain fs calls, not the
 * checkpoint code, so it can judge it. Ignored files and `.git/` are included: they must come out untouched.
 */
export async function folderDigest(root: string): Promise<Record<string, string>> {
  const digest: Record<string, string> = {};
  const visit = async (relDir: string): Promise<void> => {
    for (const name of (await readdir(path.join(root, relDir))).sort()) {
      const relPath = relDir ? `${relDir}/${name}` : name;
      if (relPath === '.workbench') continue;
      const file = path.join(root, relPath);
      const stats = await lstat(file);
      if (stats.isSymbolicLink()) digest[relPath] = `symlink → ${await readlink(file)}`;
      else if (stats.isDirectory()) {
        digest[relPath] = `folder ${(stats.mode & 0o7777).toString(8)}`;
        await visit(relPath);
      } else if (stats.isFile()) digest[relPath] = `file ${createHash('sha256').update(await readFile(file)).digest('hex').slice(0, 16)} ${(stats.mode & 0o7777).toString(8)}`;
      else digest[relPath] = 'special';
    }
  };
  await visit('');
  return digest;
}
