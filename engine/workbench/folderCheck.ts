import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

export class FolderError extends Error {
  override name = 'FolderError';
}

/** Resolves `folder` to its real absolute path, or explains in one sentence why it cannot be opened. */
export async function checkFolder(folder: string): Promise<string> {
  if (typeof folder !== 'string' || folder.trim() === '') throw new FolderError('No folder given: choose a project folder to open.');
  const absolute = path.resolve(folder);
  let info;
  try {
    info = await stat(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new FolderError(`Folder not found: ${absolute}`);
    if (code === 'EACCES' || code === 'EPERM') throw new FolderError(`Cannot open ${absolute}: permission denied.`);
    throw error;
  }
  if (!info.isDirectory()) throw new FolderError(`${absolute} is a file, not a folder: choose the project folder that contains it.`);
  try {
    await access(absolute, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch {
    throw new FolderError(`Cannot open ${absolute}: it must be readable and writable by you.`);
  }
  return realpath(absolute);
}
