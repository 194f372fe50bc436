import type { Command } from 'commander';
import { openWorkbench } from '../../engine/index.js';
import { historyJsonLines, historyTable } from '../terminal/historyFormat.js';
import { exitCodes } from './cliError.js';
import { exiting } from './exit.js';

async function history(folder: string, { json }: { json?: boolean }): Promise<number> {
  const workbench = await openWorkbench(folder);
  try {
    const { conversation, warnings } = await workbench.snapshot();
    for (const warning of warnings) process.stderr.write(`rpi-workbench: warning: ${warning}\n`);
    if (json) {
      if (conversation.length > 0) process.stdout.write(`${historyJsonLines(conversation)}\n`);
    } else if (conversation.length === 0) {
      process.stderr.write(`No messages yet in ${workbench.folder}.\n`);
    } else {
      process.stdout.write(`${historyTable(conversation)}\n`);
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
