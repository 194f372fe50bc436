import { describeFileChange, type ApprovalPreview } from '../../engine/contract/changes.js';
import { gitPatch } from '../../engine/index.js';
import { patchLines, type StyledLine } from './diffText.js';

/** Tools whose approval shows the diff of what they would change. */
export const previewedTools: ReadonlySet<string> = new Set(['write_file', 'edit_file', 'delete_file', 'move_file']);

/**
 * What an approval would change, for the question: per file a line in words ("notes.txt: new file, 3
 * lines") and its git-style diff, at most `limit` diff lines in all (the rest counted; [v]iew shows them),
 * or why the call would fail.
 */
export function previewLines(preview: ApprovalPreview, limit = Number.POSITIVE_INFINITY): StyledLine[] {
  if (preview.problem !== null) return [[{ text: `  ⚠ This call would fail as asked: ${preview.problem}`, colour: 'bold' }]];
  const lines: StyledLine[] = [];
  let left = limit;
  let hidden = 0;
  for (const file of preview.files) {
    lines.push([{ text: `  ${file.path}: ${describeFileChange(file)}${file.notes.length > 0 ? ` (${file.notes.join(', ')})` : ''}` }]);
    const patch = patchLines(gitPatch(file));
    lines.push(...patch.slice(0, Math.max(0, left)));
    hidden += Math.max(0, patch.length - Math.max(0, left));
    left -= patch.length;
  }
  if (hidden > 0) lines.push([{ text: `  … ${hidden.toLocaleString('en-US')} more lines of the diff: [v]iew details shows it all.` }]);
  if (preview.more > 0) lines.push([{ text: `  … and ${preview.more.toLocaleString('en-US')} more files.` }]);
  return lines;
}

/** The lines as plain text, for a prompter that prints no colour. */
export function plainText(lines: readonly StyledLine[]): string {
  return lines.map((line) => line.map((piece) => piece.text).join('')).join('\n');
}
