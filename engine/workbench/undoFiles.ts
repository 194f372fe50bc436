import { rmdir } from 'node:fs/promises';
import type { UndoChoices, UndoFile, UndoResult } from '../contract/index.js';
import type { ChangesService } from '../changes/changesService.js';
import { RunRefusedError } from '../contract/runRefusedError.js';
import { inParentFolder, NotAPlainFolderError } from '../workspace/heldFolder.js';

export interface UndoFilesOptions {
  root: string;
  changes: Pick<ChangesService, 'revert'>;
  /** The user message whose checkpoint the files go back to. */
  requestId: string;
  planned: readonly UndoFile[];
  choices: UndoChoices;
  /** The request that stays in the folder's history after the undo: the undo's checkpoint is kept with it. */
  keptBy: string | null;
}

/**
 * Puts back the planned files as the Changes view's revert does (after a checkpoint, so it can be taken
 * back), leaving each conflicting file the user chose to keep, then removes the folders the undone
 * requests created once they are empty. A conflict the caller made no choice for refuses the whole undo
 * before anything changes: the folder changed since the preview, and nothing is overwritten unannounced.
 */
export async function putBackUndone({ root, changes, requestId, planned, choices, keptBy }: UndoFilesOptions): Promise<UndoResult> {
  const unannounced = planned.filter((file) => file.conflict && choices[file.path] === undefined);
  if (unannounced.length > 0) throw new RunRefusedError(unannouncedText(unannounced));
  const files = planned.filter((file) => file.kind !== 'folder');
  const kept = files.filter((file) => file.conflict && choices[file.path] !== 'take').map((file) => file.path);
  const paths = files.filter((file) => !kept.includes(file.path)).map((file) => file.path);
  const reverted = paths.length === 0 ? null : await changes.revert(requestId, paths, { keptBy });
  // Also with no file to put back: an undo cut short may have left only the folders.
  const folders = planned.filter((file) => file.kind === 'folder').map((folder) => folder.path);
  for (const folder of folders.sort().reverse()) await removeIfEmpty(root, folder);
  if (reverted === null) return { restoredFiles: [], keptFiles: kept, takeBack: null };
  return {
    restoredFiles: reverted.files.filter((file) => file.change !== 'unchanged').map((file) => file.path),
    keptFiles: kept,
    // Without a request left in the folder, nothing keeps the undo's checkpoint: it goes with the undone ones.
    takeBack: keptBy === null ? null : { revertId: reverted.revertId, paths },
  };
}

function unannouncedText(files: readonly UndoFile[]): string {
  const named = files.slice(0, 3).map(({ path, conflict }) => `${path} (changed by "${conflict?.request}" in the conversation "${conflict?.conversationTitle}")`);
  const more = files.length > 3 ? ` and ${files.length - 3} more` : '';
  return `Another conversation changed ${named.join(', ')}${more} after this request, and no choice was given for ${files.length === 1 ? 'it' : 'them'}: nothing was undone. Preview the undo again and choose, for each such file, to keep the other conversation's version or take this one's.`;
}

/** A folder the undone requests created goes once nothing is left in it; one still holding something stays. */
async function removeIfEmpty(root: string, folder: string): Promise<void> {
  await inParentFolder(root, folder, (parent, name) => rmdir(parent.entry(name))).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR' && !(error instanceof NotAPlainFolderError)) throw error;
  });
}
