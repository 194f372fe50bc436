import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { IgnoreRules, hiddenDirectories } from './ignoreRules.js';

export interface WalkedFile {
  /** Path from the root with '/' separators. */
  relPath: string;
  dirent: Dirent;
}

/**
 * Yields every file under `root` that git would not ignore, depth first in name order, never entering
 * .git/ or .workbench/. Symlinks are yielded as entries, never followed.
 */
export async function* walkFiles(root: string, signal?: AbortSignal): AsyncGenerator<WalkedFile> {
  yield* walkDirectory(root, '', await IgnoreRules.none.enter(root, ''), signal);
}

async function* walkDirectory(
  root: string,
  relDir: string,
  rules: IgnoreRules,
  signal: AbortSignal | undefined,
): AsyncGenerator<WalkedFile> {
  signal?.throwIfAborted();
  let entries: Dirent[];
  try {
    entries = await readdir(path.join(root, relDir), { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (relDir && (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT')) return; // unreadable subfolder
    throw error;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const relPath = relDir ? `${relDir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (hiddenDirectories.has(entry.name) || rules.ignores(relPath, true)) continue;
      yield* walkDirectory(root, relPath, await rules.enter(root, relPath), signal);
    } else if (!rules.ignores(relPath, false)) {
      yield { relPath, dirent: entry };
    }
  }
}

export async function countFiles(root: string, signal?: AbortSignal): Promise<number> {
  let count = 0;
  for await (const _ of walkFiles(root, signal)) count += 1;
  return count;
}
