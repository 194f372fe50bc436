import type { Command } from 'commander';
import { openWorkbench } from '../../engine/index.js';
import { historyJsonLines, historyTable } from '../terminal/historyFormat.js';
import { shownStderr, shownStdout } from '../terminal/shownStream.js';
import { visibleLine } from '../terminal/visibleText.js';
import { exitCodes } from './cliError.js';
import { exiting } from './exit.js';

async function history(folder: string, { json }: { json?: boolean }): Promise<number> {
  const workbench = await openWorkbench(folder);
  try {
    const { conversation, warnings } = await workbench.snapshot();
    for (const warning of warnings) shownStderr.text(`rpi-workbench: warning: ${warning}\n`);
    if (json) {
      if (conversation.length > 0) shownStdout.text(`${historyJsonLines(conversation)}\n`);
    } else if (conversation.length === 0) {
      shownStderr.text(`No messages yet in ${visibleLine(workbench.folder)}.\n`);
    } else {
      shownStdout.text(`${historyTable(conversation)}\n`);
    }
    return exitCodes.done;
  } finally {
    await workbench.close();
  }
}

export function addHistoryCommand(program: Command): void {
  program
    .command('history')
    .description('Show the conversation: id, role, local time and first line of every message.')
    .argument('<folder>', 'the project folder')
    .option('--json', 'one JSON object per line: {id, role, ts, time, text}')
    .action(exiting(history));
}
