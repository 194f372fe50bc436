/** File diffs: text or not, a line diff (jsdiff between patience anchors), git-style patch text; large ones on the diff worker. */
export { diffFiles, permissions, type DiffSide, type DiffFilesOptions } from './fileDiff.js';
export { gitPatch, gitMode } from './gitPatch.js';
export { diffLines, splitLines, noNewlineMarker } from './lineDiff.js';
export { maxComparedBytes, tooLarge } from './textContent.js';
