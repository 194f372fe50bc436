import type { Command } from 'commander';
import type { RevertedFile } from '../../engine/contract/index.js';
import { openWorkbench } from '../../engine/index.js';
import { shownStdout } from '../terminal/shownStream.js';
import { visibleLine } from '../terminal/visibleText.js';
import { exitCodes } from './cliError.js';
import { exiting } from './exit.js';

const said: Record<RevertedFile['change'], string> = {
  restored: 'restored ',
  recreated: 'recreated',
  removed: 'removed  ',
  unchanged: 'unchanged',
};

function printFiles(files: readonly RevertedFile[]): void {
  shownStdout.text(files.map((file) => `  ${said[file.change]}  ${visibleLine(file.path)}${file.change === 'unchanged' ? ' (already as it was)' : ''}\n`).join(''));
}

async function revert(folder: string, messageId: string, paths: string[]): Promise<number> {
  const workbench = await openWorkbench(folder);
  try {
    const { files } = await workbench.request('changes:revert', { messageId, paths });
    const changed = files.filter((file) => file.change !== 'unchanged').length;
    shownStdout.text(`${changed === 0 ? 'Nothing needed reverting' : `Reverted ${changed === 1 ? '1 file' : `${changed} files`}`} to before that request:\n`);
    printFiles(files);
    shownStdout.text('A checkpoint was taken first: undoing the latest request also takes this revert back.\n');
    return exitCodes.done;
  } finally {
    await workbench.close();
  }
}

async function takeBack(folder: string, revertId: string, paths: string[]): Promise<number> {
  const workbench = await openWorkbench(folder);
  try {
    const { files } = await workbench.request('changes:undo-revert', { revertId, paths });
    shownStdout.text('Put the files back as they were before that revert or undo:\n');
    printFiles(files);
    return exitCodes.done;
  } finally {
    await workbench.close();
  }
}

export function addRevertCommand(program: Command): void {
  program
    .command('take-back')
    .description('Take a revert or an undo back: the files as they were in the checkpoint it took first (its output names the command).')
    .argument('<folder>', 'the project folder')
    .argument('<checkpointId>', 'the checkpoint the revert or undo took first')
    .argument('<path...>', 'the files it put back, relative to the folder')
    .action(exiting(takeBack));

  program
    .command('revert')
    .description('Put files back as they were before a request (content, mode, symlinks; a file it created is removed).')
    .argument('<folder>', 'the project folder')
    .argument('<messageId>', 'a message id, as `history` shows it (a summary stands for its request)')
    .argument('<path...>', 'the files to put back, relative to the folder (for a rename, give both paths)')
    .action(exiting(revert));
}
