import { formatPatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import type { FileDiff, FileSideView } from '../contract/changes.js';
import { noNewlineMarker } from './lineDiff.js';

/**
 * One file's change as git prints it (`diff --git`, the mode, rename and new/deleted-file headers, the
 * hunks, "Binary files … differ"), formatted by jsdiff. A file that became a symlink (or the other way)
 * is two patches, a deletion and a creation, as in git; its diff must hold every line (wholeFile).
 */
export function gitPatch(diff: FileDiff): string {
  const { before, after } = diff;
  if (before && after && before.kind !== after.kind) {
    const [removed, added] = splitWhole(diff.hunks);
    return gitPatch({ ...diff, status: 'deleted', after: null, hunks: removed }) + gitPatch({ ...diff, status: 'added', before: null, hunks: added });
  }
  const oldName = diff.status === 'added' ? '/dev/null' : `a/${diff.oldPath ?? diff.path}`;
  const newName = diff.status === 'deleted' ? '/dev/null' : `b/${diff.path}`;
  const patch: StructuredPatch = {
    oldFileName: oldName,
    newFileName: newName,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: diff.binary ? [] : diff.hunks,
    isGit: true,
    ...(diff.status === 'added' ? { isCreate: true, newMode: gitMode(after) } : {}),
    ...(diff.status === 'deleted' ? { isDelete: true, oldMode: gitMode(before) } : {}),
    ...(diff.status === 'renamed' ? { isRename: true } : {}),
    ...(before && after && gitMode(before) !== gitMode(after) ? { oldMode: gitMode(before), newMode: gitMode(after) } : {}),
  };
  // As git and GNU diff write them: a range of one line without its ",1".
  const text = formatPatch(patch).replace(/^@@ -(\d+),1 \+(\d+)(,\d+)? @@$/gm, '@@ -$1 +$2$3 @@').replace(/^@@ -(\d+(?:,\d+)?) \+(\d+),1 @@$/gm, '@@ -$1 +$2 @@');
  return diff.binary ? `${text}Binary files ${oldName} and ${newName} differ\n` : text;
}

/** git's mode: 100644, 100755 (any permission bits are kept), 120000 for a symlink. */
export function gitMode(side: FileSideView | null): string {
  if (!side) return '100644';
  if (side.kind === 'symlink') return '120000';
  return (0o100000 | ((side.mode ?? 0o644) & 0o7777)).toString(8);
}

/** The hunks of a whole-file diff as the old file removed and the new one added, each in one hunk. */
function splitWhole(hunks: readonly StructuredPatchHunk[]): [StructuredPatchHunk[], StructuredPatchHunk[]] {
  const old: string[] = [];
  const added: string[] = [];
  let previous: string[][] = [];
  for (const line of hunks.flatMap((hunk) => hunk.lines)) {
    if (line === noNewlineMarker) {
      for (const side of previous) side.push(line);
      continue;
    }
    const text = line.slice(1);
    previous = line[0] === '+' ? [added] : line[0] === '-' ? [old] : [old, added];
    for (const side of previous) side.push(`${side === old ? '-' : '+'}${text}`);
  }
  const count = (lines: string[]) => lines.filter((line) => line !== noNewlineMarker).length;
  const removedHunks = count(old) > 0 ? [{ oldStart: 1, oldLines: count(old), newStart: 1, newLines: 0, lines: old }] : [];
  const addedHunks = count(added) > 0 ? [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: count(added), lines: added }] : [];
  return [removedHunks, addedHunks];
}
