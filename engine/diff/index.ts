/** File diffs: text or not, a line diff with jsdiff, git-style patch text. */
export { diffFiles, permissions, type DiffSide, type DiffFilesOptions } from './fileDiff.js';
export { gitPatch, gitMode } from './gitPatch.js';
export { diffLines, splitLines, noNewlineMarker } from './lineDiff.js';
export { contentOf, maxComparedBytes, tooLarge } from './textContent.js';
