import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';
import { forEachLimited } from './forEachLimited.js';
import { readContent } from './readContent.js';
import { permissionBits } from './statRecord.js';
import type { WorkspaceState } from './workspaceState.js';

/**
 * Adds to `present` what a checkpoint recorded and is still on disk but that the walk no longer sees,
 * because a .gitignore changed since: such a path is compared like any other, so restore neither calls
 * it recreated nor rewrites it when it is unchanged.
 */
export async function addPresentButIgnored(root: string, wanted: WorkspaceState, present: WorkspaceState): Promise<void> {
  const folders = [...wanted.folders].filter((folder) => !present.folders.has(folder));
  await forEachLimited(folders, 16, async (folder) => {
    const stats = await lstat(path.join(root, folder)).catch(() => null);
    if (!stats?.isDirectory()) return;
    present.folders.add(folder);
    present.folderModes?.set(folder, permissionBits(stats.mode));
  });
  const files = [...wanted.files.keys()].filter((relPath) => !present.files.has(relPath));
  await forEachLimited(files, 8, async (relPath) => {
    const file = path.join(root, relPath);
    const stats = await lstat(file).catch(() => null);
    if (stats?.isSymbolicLink()) {
      const target = await readlink(file).catch(() => null);
      if (target !== null) present.files.set(relPath, { type: 'symlink', target });
      return;
    }
    if (!stats?.isFile()) return;
    const read = await readContent(file, null);
    if (read.kind !== 'read') return;
    const { mode, mtimeMs, ctimeMs, ino } = read.stat;
    present.files.set(relPath, { type: 'file', mode: permissionBits(mode), hash: read.hash, size: read.size, mtimeMs, ctimeMs, ino });
  });
}
