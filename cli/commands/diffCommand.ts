import type { Command } from 'commander';
import type { ChangeRange, FileDiff } from '../../engine/contract/index.js';
import { gitPatch, hostEnvironment, type Workbench } from '../../engine/index.js';
import { patchLines, statLines, wantsColour, writeStyled } from '../terminal/diffText.js';
import { shownStderr, shownStdout } from '../terminal/shownStream.js';
import { terminalJson, visibleLine } from '../terminal/visibleText.js';
import { exitCodes } from './cliError.js';
import { conversationOf, withConversationOption, type ConversationFlag } from './conversationOption.js';
import { exiting } from './exit.js';
import { noMessageYet, openForReading } from './readOnlyOpen.js';

export interface DiffFlags extends ConversationFlag {
  stat?: boolean;
  json?: boolean;
  since?: boolean;
}

async function diff(folder: string, messageId: string | undefined, flags: DiffFlags): Promise<number> {
  const { root, workbench } = await openForReading(folder);
  if (!workbench) {
    if (messageId !== undefined) throw noMessageYet(root, messageId);
    shownStderr.text(nothingChangedLine(root));
    return exitCodes.done;
  }
  try {
    await printDiff(workbench, messageId, flags);
    return exitCodes.done;
  } finally {
    await workbench.close();
  }
}

/** Prints what a request (default: the latest) changed on stdout, as the flags ask; says so on stderr when there is no request yet. */
export async function printDiff(workbench: Workbench, messageId: string | undefined, flags: DiffFlags): Promise<void> {
  const request = messageId ?? (await latestRequestId(workbench, flags));
  if (request === null) {
    shownStderr.text(nothingChangedLine(workbench.folder));
    return;
  }
  const range: ChangeRange = flags.since ? 'since' : 'request';
  const colour = wantsColour(shownStdout, hostEnvironment());
  if (flags.stat && !flags.json) {
    writeStyled(shownStdout, statLines((await workbench.request('changes:list', { messageId: request, range })).files, shownStdout.columns ?? 80), colour);
    return;
  }
  const diffs = await workbench.request('changes:diffs', { messageId: request, range });
  if (flags.json) {
    if (diffs.length > 0) shownStdout.text(`${diffs.map((file) => terminalJson(jsonOf(file))).join('\n')}\n`);
  } else {
    writeStyled(shownStdout, diffs.flatMap((file) => patchLines(gitPatch(file))), colour);
  }
}

const nothingChangedLine = (folder: string) => `No requests yet in ${visibleLine(folder)}, so nothing changed.\n`;

/** The latest request of the conversation the flags name (else the most recent conversation). */
async function latestRequestId(workbench: Workbench, flags: ConversationFlag): Promise<string | null> {
  const { conversation } = await workbench.request('workbench:snapshot', conversationOf(flags));
  return conversation.findLast((message) => message.role === 'user')?.id ?? null;
}

/** One file for --json: where it is (and was), what happened, the counts, and its git-style patch. */
function jsonOf(file: FileDiff) {
  return {
    path: file.path,
    ...(file.oldPath === undefined ? {} : { oldPath: file.oldPath }),
    status: file.status,
    added: file.added,
    removed: file.removed,
    binary: file.binary,
    patch: gitPatch(file),
  };
}

export function addDiffCommand(program: Command): void {
  withConversationOption(program.command('diff'))
    .description('Show what a request changed in the folder, as a git-style unified diff (shell-made changes included).')
    .argument('<folder>', 'the project folder')
    .argument('[messageId]', 'a message id, as `history` shows it (a summary stands for its request); default: the latest request')
    .option('--stat', 'per file: the count of changed lines and a bar of + and -, then the totals')
    .option('--json', 'one JSON object per file and line: {path, oldPath?, status, added, removed, binary, patch}')
    .option('--since', 'everything changed since before that request, later requests included (what undo would take back)')
    .addHelpText(
      'after',
      '\nA request\'s changes run from the checkpoint taken before it to the one taken before the next request, or to the folder now for the latest.\nColoured on a terminal (unless NO_COLOR is set), plain when piped.',
    )
    .action(exiting(diff));
}
