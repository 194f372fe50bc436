import type { Command } from 'commander';
import { openWorkbench } from '../../engine/index.js';
import { shownStdout } from '../terminal/shownStream.js';
import { visibleLine } from '../terminal/visibleText.js';
import { exitCodes } from './cliError.js';
import { exiting } from './exit.js';

async function undo(folder: string, messageId: string): Promise<number> {
  const workbench = await openWorkbench(folder);
  try {
    const restored = await workbench.undo(messageId);
    const files = restored.length === 1 ? '1 file' : `${restored.length} files`;
    shownStdout.text(restored.length === 0 ? 'No files needed restoring.\n' : `Restored ${files}:\n${restored.map((file) => `  ${visibleLine(file)}\n`).join('')}`);
    shownStdout.text('The conversation now ends before that request; its research and plan were cleared.\n');
    return exitCodes.done;
  } finally {
    await workbench.close();
  }
}

export function addUndoCommand(program: Command): void {
  program
    .command('undo')
    .description('Restore the files and the conversation to before a message (a summary stands for the request it answers).')
    .argument('<folder>', 'the project folder')
    .argument('<messageId>', 'a message id, as `history` shows it')
    .action(exiting(undo));
}
