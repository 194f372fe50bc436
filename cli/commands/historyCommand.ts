import type { Command } from 'commander';
import type { RpiFile } from '../../engine/contract/index.js';
import type { Workbench } from '../../engine/index.js';
import { historyJsonLines, historyTable } from '../terminal/historyFormat.js';
import { shownStderr, shownStdout } from '../terminal/shownStream.js';
import { visibleLine } from '../terminal/visibleText.js';
import { CliError, exitCodes } from './cliError.js';
import { exiting } from './exit.js';
import { noMessageYet, openForReading } from './readOnlyOpen.js';

interface HistoryFlags {
  json?: boolean;
  plan?: string;
  research?: string;
}

async function history(folder: string, { json, plan, research }: HistoryFlags): Promise<number> {
  if (plan !== undefined && research !== undefined) throw new CliError('Give --plan or --research, not both: each prints one file.');
  const { root, workbench } = await openForReading(folder);
  if (!workbench) {
    const asked = plan ?? research;
    if (asked !== undefined) throw noMessageYet(root, asked);
    if (!json) shownStderr.text(noMessagesLine(root));
    return exitCodes.done;
  }
  try {
    if (plan !== undefined) return await printRunFile(workbench, plan, 'plan');
    if (research !== undefined) return await printRunFile(workbench, research, 'research');
    const { conversation, warnings, runs = {}, usage } = await workbench.request('workbench:snapshot');
    const requestUsage = usage?.requests ?? {};
    for (const warning of warnings) shownStderr.text(`rpi-workbench: warning: ${warning}\n`);
    if (json) {
      if (conversation.length > 0) shownStdout.text(`${historyJsonLines(conversation, runs, requestUsage)}\n`);
    } else if (conversation.length === 0) {
      shownStderr.text(noMessagesLine(workbench.folder));
    } else {
      shownStdout.text(`${historyTable(conversation, runs, requestUsage)}\n`);
    }
    return exitCodes.done;
  } finally {
    await workbench.close();
  }
}

const noMessagesLine = (folder: string) => `No messages yet in ${visibleLine(folder)}.\n`;

/** An earlier (or the current) request's plan.md, outcome marks included, or its research.md; exit 1 with the reason when none was kept. */
async function printRunFile(workbench: Workbench, messageId: string, file: RpiFile): Promise<number> {
  const answer = await workbench.request('session:run-file', { messageId, file });
  if (answer.text === null) {
    shownStderr.text(`rpi-workbench: ${answer.reason}\n`);
    return exitCodes.failed;
  }
  shownStdout.text(answer.text.endsWith('\n') ? answer.text : `${answer.text}\n`);
  return exitCodes.done;
}

export function addHistoryCommand(program: Command): void {
  program
    .command('history')
    .description('Show the conversation: id, role, local time and first line of every message.')
    .argument('<folder>', 'the project folder')
    .option(
      '--json',
      'one JSON object per line: {id, role, ts, time, text, context?}, and for a request plan: {done, failed, total} or null and usage: {promptTokens, cachedTokens, cacheWriteTokens, completionTokens, reasoningTokens, costUsd, unpricedSteps} or null and checks: {passed, failed, denied, none} or null, and models: {research, plan, implement, summary}, the model that ran each phase',
    )
    .option('--plan <messageId>', "print that request's plan.md as its run left it, with each step's outcome")
    .option('--research <messageId>', "print that request's research.md")
    .action(exiting(history));
}
