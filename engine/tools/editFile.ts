import { z } from 'zod';
import { fileKindOf, sniffLength } from './fileKind.js';
import { ToolError, defineTool } from './tool.js';

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

export const editFile = defineTool({
  name: 'edit_file',
  description:
    'Replace one exact piece of text in a file. old_text must appear exactly once in the file, character for ' +
    'character (copy it from read_file, without the line numbers); include enough surrounding lines to make it unique. ' +
    'To create a file or rewrite it whole, use write_file.',
  parameters: z.object({
    path: z.string().describe('File path relative to the project folder.'),
    old_text: z.string().describe('The exact text to replace; it must occur exactly once.'),
    new_text: z.string().describe('The text to put in its place (may be empty to delete old_text).'),
  }),
  mutates: true,
  async run({ path, old_text: oldText, new_text: newText }, { workspace }) {
    if (oldText === '') throw new ToolError('old_text is empty. To create a file or replace it whole, use write_file.');
    if (oldText === newText) throw new ToolError('old_text and new_text are the same, so there is nothing to change.');
    const target = await workspace.resolve(path, 'write');
    const bytes = await workspace.readFile(target).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new ToolError(`${path} does not exist. Use write_file to create it.`);
      if (error.code === 'EISDIR') throw new ToolError(`${path} is a folder, not a file.`);
      throw error;
    });
    if (fileKindOf(bytes.subarray(0, sniffLength)).binary) throw new ToolError(`${path} is a binary file; edit_file changes text files only.`);
    let text: string;
    try {
      text = strictDecoder.decode(bytes);
    } catch {
      throw new ToolError(`${path} is not valid UTF-8, so editing it as text could corrupt it; rewrite it with write_file if you must.`);
    }
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
    await workspace.writeFile(target, text.slice(0, position) + to + text.slice(position + from.length));
    const line = lineAt(text, position);
    return `Edited ${target.rel}: replaced ${lineCount(from)} line(s) at line ${line} with ${lineCount(to)} line(s).`;
  },
});

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

function lineCount(text: string): number {
  return text.split('\n').length;
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
