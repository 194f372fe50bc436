import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { tooLongBelow } from './pathLimits.js';
import { listingFailureReason, type OnUnreachable } from './unreachable.js';

export interface EntryUnder {
  /** From the root, '/' separators. */
  relPath: string;
  isFolder: boolean;
}

/**
 * Everything inside folder `rel` of `root`, at any depth, .gitignore or not, without following a link:
 * what a delete or a restore would take away. A subtree that cannot be reached (a path past the system's
 * limit, a folder it may not read) is left out and told to `onUnreachable`; only `rel` itself must list.
 */
export async function entriesUnder(root: string, rel: string, { onUnreachable }: { onUnreachable: OnUnreachable }): Promise<EntryUnder[]> {
  const tooLong = tooLongBelow(root);
  const found: EntryUnder[] = [];
  const folders = [rel];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let names;
    try {
      names = await readdir(path.join(root, folder), { withFileTypes: true });
    } catch (error) {
      if (folder === rel) throw error;
      const reason = listingFailureReason(error);
      if (reason) onUnreachable({ relPath: folder, reason });
      continue;
    }
    for (const entry of names) {
      const relPath = `${folder}/${entry.name}`;
      const beyond = tooLong(relPath);
      if (beyond) {
        onUnreachable({ relPath, reason: beyond });
        continue;
      }
      found.push({ relPath, isFolder: entry.isDirectory() });
      if (entry.isDirectory()) folders.push(relPath);
    }
  }
  return found.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
}
