import type { Command } from 'commander';
import { conversationsJsonLines, conversationsTable } from '../terminal/conversationsFormat.js';
import { shownStderr, shownStdout } from '../terminal/shownStream.js';
import { visibleLine } from '../terminal/visibleText.js';
import { exitCodes } from './cliError.js';
import { exiting } from './exit.js';
import { openForReading } from './readOnlyOpen.js';

/** Lists the folder's conversations, most recent first; reads only, so a folder never used stays untouched. */
async function conversations(folder: string, { json }: { json?: boolean }): Promise<number> {
  const { root, workbench } = await openForReading(folder);
  const listed = workbench ? await workbench.request('conversations:list').finally(() => workbench.close()) : { conversations: [] };
  if (json) {
    if (listed.conversations.length > 0) shownStdout.text(`${conversationsJsonLines(listed.conversations)}\n`);
  } else if (listed.conversations.length === 0) {
    shownStderr.text(`No conversations yet in ${visibleLine(root)}.\n`);
  } else {
    shownStdout.text(`${conversationsTable(listed.conversations)}\n`);
  }
  return exitCodes.done;
}

export function addConversationsCommand(program: Command): void {
  program
    .command('conversations')
    .description("List the folder's conversations, the most recent first: id, created, last activity, requests, title (a mark on the one running).")
    .argument('<folder>', 'the project folder')
    .option('--json', 'one JSON object per line: {id, title, created, updated, requests, running}')
    .action(exiting(conversations));
}
