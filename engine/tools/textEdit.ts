import { ToolError } from './tool.js';

export interface TextEdit {
  /** The whole text after the edit. */
  text: string;
  /** The line where old_text started. */
  line: number;
  /** What was replaced and what replaced it, line endings matched to the file's. */
  from: string;
  to: string;
}

/**
 * edit_file's replacement on a text, without touching any file (the tool writes the result; an approval
 * previews it): `oldText` must occur exactly once. Throws ToolError saying why it cannot be applied.
 */
export function replaceOnce(text: string, { path, oldText, newText }: { path: string; oldText: string; newText: string }): TextEdit {
  refuseEmptyEdit(oldText, newText);
  const { from, to } = matchLineEndings(text, oldText, newText);
  const positions = occurrences(text, from);
  if (positions.length === 0) throw new ToolError(notFoundMessage(path, text, oldText));
  if (positions.length > 1) {
    const lines = positions.map((position) => lineAt(text, position));
    throw new ToolError(
      `old_text matches ${positions.length} times in ${path} (at lines ${lines.join(', ')}); it must match exactly once. ` +
        'Include more surrounding lines so it is unique.',
    );
  }
  const position = positions[0]!;
  return { text: text.slice(0, position) + to + text.slice(position + from.length), line: lineAt(text, position), from, to };
}

/** The edits refused before the file is even read. */
export function refuseEmptyEdit(oldText: string, newText: string): void {
  if (oldText === '') throw new ToolError('old_text is empty. To create a file or replace it whole, use write_file.');
  if (oldText === newText) throw new ToolError('old_text and new_text are the same, so there is nothing to change.');
}

/** A file with CRLF endings is matched with the model's "\n" text turned into "\r\n", and written back the same way. */
function matchLineEndings(text: string, oldText: string, newText: string): { from: string; to: string } {
  if (text.includes(oldText) || !text.includes('\r\n') || oldText.includes('\r\n')) return { from: oldText, to: newText };
  const crlf = (value: string) => value.replace(/\r?\n/g, '\r\n');
  return { from: crlf(oldText), to: crlf(newText) };
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + 1)) found.push(index);
  return found;
}

function lineAt(text: string, position: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < position; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}

/** Says whether the text is there apart from whitespace, which is the usual reason an exact match fails. */
function notFoundMessage(path: string, text: string, oldText: string): string {
  const base = `old_text was not found in ${path}.`;
  const squeeze = (value: string) => value.replace(/\s+/g, ' ').trim();
  const wanted = squeeze(oldText);
  const lines = text.split('\n');
  const firstWanted = squeeze(oldText.split('\n').find((line) => line.trim() !== '') ?? '');
  if (wanted && firstWanted) {
    for (let index = 0; index < lines.length; index += 1) {
      if (squeeze(lines[index]!) !== firstWanted) continue;
      const window = squeeze(lines.slice(index, index + oldText.split('\n').length + 2).join('\n'));
      if (window.includes(wanted)) {
        return `${base} Text that differs only in whitespace or indentation starts at line ${index + 1}; read the file again and copy it exactly.`;
      }
    }
  }
  return `${base} Read the file again and copy the exact current text (without line numbers).`;
}
