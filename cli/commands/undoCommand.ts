import type { Command } from 'commander';
import { quote } from 'shell-quote';
import type { UndoChoices, UndoFile, UndoResult } from '../../engine/contract/index.js';
import { openWorkbench, type Workbench } from '../../engine/index.js';
import { LiveLine } from '../terminal/liveLine.js';
import type { Prompter } from '../terminal/prompter.js';
import { shownStderr, shownStdout } from '../terminal/shownStream.js';
import { terminalPrompter } from '../terminal/terminalPrompter.js';
import { askConflictChoices, conflictLines, conflictsOf, keepEvery, undoneText } from '../terminal/undoConflicts.js';
import { visibleLine } from '../terminal/visibleText.js';
import { exitCodes } from './cliError.js';
import { conversationOf, withConversationOption, type ConversationFlag } from './conversationOption.js';
import { exiting } from './exit.js';

async function undo(folder: string, messageId: string, flags: ConversationFlag): Promise<number> {
  const workbench = await openWorkbench(folder);
  try {
    const target = { messageId, ...conversationOf(flags) };
    const interrupted = new AbortController();
    const onTerminal = process.stdin.isTTY && shownStderr.isTTY;
    const asking = {
      print: (text: string) => shownStdout.text(`${text}\n`),
      prompter: onTerminal ? terminalPrompter(new LiveLine(shownStderr, true), () => interrupted.abort()) : null,
      signal: interrupted.signal,
    };
    const choices = await chooseForConflicts(await workbench.request('session:undo-preview', target), asking);
    if (choices === null) {
      shownStderr.text('Nothing was undone: the files and the conversation are as they were.\n');
      return exitCodes.interrupted;
    }
    shownStdout.text(undoneFolderText(workbench, await workbench.request('session:undo', { ...target, choices })));
    return exitCodes.done;
  } finally {
    await workbench.close();
  }
}

export interface ConflictAsking {
  print: (text: string) => void;
  /** The terminal to ask on; null where there is none. */
  prompter: Prompter | null;
  /** Aborted by Ctrl-C at a question: then nothing is undone. */
  signal: AbortSignal;
}

/**
 * Lists the files of the preview another conversation changed since and, on a terminal, asks for each
 * whether to keep that version or take this conversation's; without one, keeps them all and says so.
 * Null when the asking was interrupted.
 */
export async function chooseForConflicts(preview: readonly UndoFile[], { print, prompter, signal }: ConflictAsking): Promise<UndoChoices | null> {
  const conflicts = conflictsOf(preview);
  if (conflicts.length === 0) return {};
  print(conflictLines(conflicts));
  if (prompter === null) {
    print('No terminal to ask on: each of them keeps the other conversation’s version.');
    return keepEvery(conflicts);
  }
  return askConflictChoices(conflicts, prompter, signal);
}

/** What the undo did, with the command that takes it back in this folder. */
export function undoneFolderText(workbench: Pick<Workbench, 'folder'>, undone: UndoResult): string {
  return undoneText(undone, ({ revertId, paths }) => visibleLine(quote(['rpi-workbench', 'take-back', workbench.folder, revertId, ...paths])));
}

export function addUndoCommand(program: Command): void {
  withConversationOption(program.command('undo'))
    .description(
      'Put back the files the conversation changed from a message on and cut it there (a summary stands for the request it answers); a file another conversation changed since is asked about on a terminal, else kept.',
    )
    .argument('<folder>', 'the project folder')
    .argument('<messageId>', 'a message id, as `history` shows it')
    .action(exiting(undo));
}
