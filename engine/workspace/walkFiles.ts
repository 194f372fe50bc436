import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { IgnoreRules, hiddenDirectories } from './ignoreRules.js';

export interface WalkedFile {
  /** Path from the root with '/' separators. */
  relPath: string;
  dirent: Dirent;
}

type Listing = { entries: Dirent[] } | { error: unknown };

type Pending =
  | { kind: 'file'; file: WalkedFile }
  | { kind: 'folder'; relDir: string; rules: IgnoreRules; listing: Promise<Listing> };

/**
 * Yields every file under `root` that git would not ignore, depth first in name order, never entering
 * .git/ or .workbench/. Symlinks are yielded as entries, never followed.
 *
 * One explicit stack instead of a generator per folder (which would pass every file up through each
 * level), and a folder's subfolders are listed ahead, while its files are being consumed.
 */
export async function* walkFiles(root: string, signal?: AbortSignal): AsyncGenerator<WalkedFile> {
  const stack: Pending[] = [{ kind: 'folder', relDir: '', rules: IgnoreRules.none, listing: list(root, '') }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (item.kind === 'file') {
      yield item.file;
      continue;
    }
    signal?.throwIfAborted();
    const listing = await item.listing;
    if ('error' in listing) {
      if (item.relDir === '' || !isSkippable(listing.error)) throw listing.error;
      continue; // a subfolder we may not read, or that vanished meanwhile
    }
    const entries = listing.entries;
    const rules = entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory())
      ? await item.rules.enter(root, item.relDir)
      : item.rules;
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0)); // reversed: the stack pops in name order
    for (const entry of entries) {
      const relPath = item.relDir ? `${item.relDir}/${entry.name}` : entry.name;
      if (!entry.isDirectory()) {
        if (!rules.ignores(relPath, false)) stack.push({ kind: 'file', file: { relPath, dirent: entry } });
      } else if (!hiddenDirectories.has(entry.name) && !rules.ignores(relPath, true)) {
        stack.push({ kind: 'folder', relDir: relPath, rules, listing: list(root, relPath) });
      }
    }
  }
}

/** Lists a folder without ever rejecting, so a listing started ahead cannot become an unhandled rejection. */
function list(root: string, relDir: string): Promise<Listing> {
  return readdir(path.join(root, relDir), { withFileTypes: true }).then(
    (entries) => ({ entries }),
    (error: unknown) => ({ error }),
  );
}

function isSkippable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EPERM' || code === 'ENOENT' || code === 'ENOTDIR';
}

export async function countFiles(root: string, signal?: AbortSignal): Promise<number> {
  let count = 0;
  for await (const _ of walkFiles(root, signal)) count += 1;
  return count;
}
