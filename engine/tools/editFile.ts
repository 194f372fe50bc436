import { z } from 'zod';
import { fileKindOf, sniffLength } from '../files/fileKind.js';
import { refuseEmptyEdit, replaceOnce } from './textEdit.js';
import { ToolError, defineTool } from './tool.js';
import type { Workspace, WorkspacePath } from '../workspace/workspace.js';

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
  changedPaths: ({ path }) => [path],
  async run({ path, old_text: oldText, new_text: newText }, { workspace }) {
    refuseEmptyEdit(oldText, newText);
    const target = await workspace.resolve(path, 'write');
    const text = await readEditableText(workspace, target, path);
    const edit = replaceOnce(text, { path, oldText, newText });
    await workspace.writeFile(target, edit.text);
    return { text: `Edited ${target.rel}: replaced ${lineCount(edit.from)} line(s) at line ${edit.line} with ${lineCount(edit.to)} line(s).` };
  },
});

/** The file as UTF-8 text, or a ToolError saying why edit_file cannot change it (missing, a folder, binary, not UTF-8). */
export async function readEditableText(workspace: Workspace, target: WorkspacePath, path: string): Promise<string> {
  const bytes = await workspace.readFile(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new ToolError(`${path} does not exist. Use write_file to create it.`);
    if (error.code === 'EISDIR') throw new ToolError(`${path} is a folder, not a file.`);
    throw error;
  });
  if (fileKindOf(bytes.subarray(0, sniffLength)).binary) throw new ToolError(`${path} is a binary file; edit_file changes text files only.`);
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new ToolError(`${path} is not valid UTF-8, so editing it as text could corrupt it; rewrite it with write_file if you must.`);
  }
}

function lineCount(text: string): number {
  return text.split('\n').length;
}
