import type { Command } from 'commander';
import { openWorkbench } from '../../engine/index.js';
import { shownStdout } from '../terminal/shownStream.js';
import { visibleLine } from '../terminal/visibleText.js';
import { exitCodes } from './cliError.js';
import { conversationOf, withConversationOption, type ConversationFlag } from './conversationOption.js';
import { exiting } from './exit.js';

async function undo(folder: string, messageId: string, flags: ConversationFlag): Promise<number> {
  const workbench = await openWorkbench(folder);
  try {
    shownStdout.text(undoneText((await workbench.request('session:undo', { messageId, ...conversationOf(flags) })).restoredFiles));
    return exitCodes.done;
  } finally {
    await workbench.close();
  }
}

/** What an undo did: the files it restored, and the conversation cut before the request. */
export function undoneText(restored: readonly string[]): string {
  const files = restored.length === 1 ? '1 file' : `${restored.length} files`;
  const what = restored.length === 0 ? 'No files needed restoring.\n' : `Restored ${files}:\n${restored.map((file) => `  ${visibleLine(file)}\n`).join('')}`;
  return `${what}The conversation now ends before that request; its research and plan were cleared.\n`;
}

export function addUndoCommand(program: Command): void {
  withConversationOption(program.command('undo'))
    .description('Restore the files and the conversation to before a message (a summary stands for the request it answers).')
    .argument('<folder>', 'the project folder')
    .argument('<messageId>', 'a message id, as `history` shows it')
    .action(exiting(undo));
}
