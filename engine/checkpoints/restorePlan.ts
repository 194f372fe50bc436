import type { RestoreChange } from './checkpointTypes.js';
import { deepestFirst, parentOf, sameContent, type FileContentRecord, type FileRecord, type SymlinkRecord, type WorkspaceState } from './workspaceState.js';

export type WritableRecord = FileContentRecord | SymlinkRecord;

/** What bringing the folder back to a checkpoint takes, step by step, in the order the steps must run. */
export interface RestorePlan {
  /** Files, symlinks and other entries the checkpoint does not have. */
  removeFiles: string[];
  /** Folders the checkpoint does not have, deepest first; each goes once it is empty. */
  removeFolders: string[];
  /** Folders the checkpoint has that are missing, shallowest first. */
  createFolders: string[];
  /** Files and symlinks whose content, mode or target differ, or that are missing. */
  writes: [path: string, record: WritableRecord][];
  /** Folders whose permission bits the checkpoint recorded and that differ now (or were recreated), deepest first. */
  folderModes: [path: string, mode: number][];
  /** The same, as a user reads it, in path order. */
  changes: RestoreChange[];
}

/**
 * Compares the folder as it is (`present`) with a checkpoint (`wanted`). An entry the checkpoint could
 * not record is left as it is; anything else present that the checkpoint lacks is removed.
 */
export function planRestore(wanted: WorkspaceState, present: WorkspaceState): RestorePlan {
  const plan: RestorePlan = { removeFiles: [], removeFolders: [], createFolders: [], writes: [], folderModes: [], changes: [] };
  const leftAlone = unrecordedIn(wanted);
  for (const [relPath, record] of present.files) {
    if (wanted.files.has(relPath) || leftAlone(relPath)) continue;
    plan.removeFiles.push(relPath);
    plan.changes.push({ path: relPath, kind: kindOf(record), change: 'removed' });
  }
  for (const folder of deepestFirst([...present.folders].filter((folder) => !wanted.folders.has(folder) && !leftAlone(folder)))) {
    plan.removeFolders.push(folder);
    plan.changes.push({ path: folder, kind: 'folder', change: 'removed' });
  }
  for (const folder of deepestFirst([...wanted.folders].filter((folder) => !present.folders.has(folder))).reverse()) {
    plan.createFolders.push(folder);
    plan.changes.push({ path: folder, kind: 'folder', change: 'recreated' });
  }
  for (const [relPath, record] of wanted.files) {
    const there = present.files.get(relPath);
    if (record.type === 'unrecorded' || sameContent(record, there)) continue;
    plan.writes.push([relPath, record]);
    plan.changes.push({ path: relPath, kind: kindOf(record), change: there ? 'restored' : 'recreated' });
  }
  for (const folder of deepestFirst(wanted.folders)) {
    const mode = wanted.folderModes?.get(folder);
    if (mode === undefined || leftAlone(folder)) continue;
    const recreated = !present.folders.has(folder);
    if (!recreated && present.folderModes?.get(folder) === mode) continue;
    plan.folderModes.push([folder, mode]);
    if (!recreated) plan.changes.push({ path: folder, kind: 'folder', change: 'restored' });
  }
  plan.changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return plan;
}

function kindOf(record: FileRecord): RestoreChange['kind'] {
  return record.type === 'symlink' ? 'symlink' : 'file';
}

/** Whether a path is, or is inside, one the checkpoint could not record (an unreadable folder, say): such paths are left alone. */
function unrecordedIn(wanted: WorkspaceState): (relPath: string) => boolean {
  const unrecorded = new Set([...wanted.files].flatMap(([relPath, record]) => (record.type === 'unrecorded' ? [relPath] : [])));
  if (unrecorded.size === 0) return () => false;
  return (relPath) => {
    for (let at = relPath; at !== ''; at = parentOf(at)) if (unrecorded.has(at)) return true;
    return false;
  };
}
