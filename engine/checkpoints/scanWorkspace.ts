import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { IgnoreRules } from '../workspace/ignoreRules.js';
import { StatPipeline, type StatTable } from './statPipeline.js';
import { isHiddenName, joinPath } from './workspaceState.js';

/** The paths of what is directly in a folder. */
export interface FolderListing {
  /** Files, symlinks and anything else that is not a folder. */
  files: string[];
  folders: string[];
}

export interface WorkspaceScan extends StatTable {
  /** Each folder git would walk into ('' for the root) and what is directly in it. */
  listing: Map<string, FolderListing>;
  /** Folders that exist but could not be listed. */
  unlisted: string[];
}

type Listing = { entries: Dirent[] } | { error: NodeJS.ErrnoException };

interface Pending {
  relDir: string;
  rules: IgnoreRules;
}

/** How long the walk may keep the event loop to itself: short, as the lstat worker's answers come in between. */
const turnMs = 10;

/**
 * Lists the workspace as walkFiles does (nested .gitignore honoured, never entering .git/ or .workbench/,
 * symlinks as entries, never followed), and also yields the folders, since a checkpoint must bring back
 * empty ones and remove new ones, which walkFiles has no way to report. Files are lstat'ed on the lstat
 * worker while the walk goes on. Folders are listed synchronously, in turns of a few milliseconds: an
 * asynchronous listing costs the walking thread about twice as much, and that thread is the bottleneck.
 */
export async function scanWorkspace(root: string, signal?: AbortSignal): Promise<WorkspaceScan> {
  const listing = new Map<string, FolderListing>();
  const unlisted: string[] = [];
  const stats = new StatPipeline(root);
  const stack: Pending[] = [{ relDir: '', rules: IgnoreRules.none }];
  let turnStart = performance.now();
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (performance.now() - turnStart > turnMs) {
      await nextTurn();
      turnStart = performance.now();
    }
    signal?.throwIfAborted();
    const listed = list(root, item.relDir);
    if ('error' in listed) {
      if (item.relDir === '') throw listed.error;
      if (listed.error.code !== 'ENOENT' && listed.error.code !== 'ENOTDIR') unlisted.push(item.relDir);
      continue;
    }
    const rules = listed.entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory()) ? await item.rules.enter(root, item.relDir) : item.rules;
    const children: FolderListing = { files: [], folders: [] };
    for (const entry of listed.entries) {
      if (isHiddenName(entry.name)) continue;
      const relPath = joinPath(item.relDir, entry.name);
      if (!entry.isDirectory()) {
        if (rules.ignores(relPath, false)) continue;
        stats.add(relPath);
        children.files.push(relPath);
      } else if (!rules.ignores(relPath, true)) {
        stack.push({ relDir: relPath, rules });
        children.folders.push(relPath);
      }
    }
    listing.set(item.relDir, children);
  }
  return { ...(await stats.finish()), listing, unlisted };
}

function list(root: string, relDir: string): Listing {
  try {
    return { entries: readdirSync(path.join(root, relDir), { withFileTypes: true }) };
  } catch (error) {
    return { error: error as NodeJS.ErrnoException };
  }
}
