import type { Command } from 'commander';
import type { StartedRun } from '../../engine/contract/index.js';
import { checkFolder, type Workbench } from '../../engine/index.js';
import { LiveLine } from '../terminal/liveLine.js';
import { shownStderr } from '../terminal/shownStream.js';
import { terminalPrompter } from '../terminal/terminalPrompter.js';
import { CliError, exitCodes } from './cliError.js';
import { conversationOf, withConversationOption, type ConversationFlag } from './conversationOption.js';
import { resolveContextItems } from './contextOption.js';
import { exiting } from './exit.js';
import { withRunFlags, type RunFlags } from './runFlags.js';
import { isInteractive, runSession } from './runSession.js';
import { chooseForConflicts } from './undoCommand.js';

/** run, resume, retry and regenerate: the commands that start a run, with the same options. */
export function addRunCommands(program: Command): void {
  withRunFlags(
    withConversationOption(program.command('run'))
      .description('Start a run on a new request: Research → Plan → Implement → Summary.')
      .argument('<folder>', 'the project folder')
      .argument('<request...>', 'what to do, e.g. "add a greeting module" (several words are joined); @path words attach that file or folder')
      .option('--context <path>', 'attach a file or folder of the project (relative to it) to the request; its content goes to every phase (repeat for more)', collectPaths)
      .option('--new', 'start a new conversation for the request'),
  ).action(
    exiting(async (folder: string, words: string[], flags: RunFlags & ConversationFlag & { context?: string[]; new?: boolean }) => {
      if (flags.new && flags.conversation !== undefined) throw new CliError('Give --new or --conversation, not both: a request goes into one conversation.');
      const request = words.join(' ');
      // Checked before anything starts: a path that is not there ends the command (exit 2) with nothing created.
      const context = await resolveContextItems(await checkFolder(folder), flags.context ?? [], request);
      return runSession({
        folder,
        flags,
        start: async (workbench) => {
          const conversation = flags.new ? { conversationId: (await workbench.request('conversations:new')).id } : conversationOf(flags);
          return workbench.request('session:send', { prompt: request, context, ...conversation });
        },
      });
    }),
  );

  withRunFlags(
    withConversationOption(program.command('resume'))
      .description('Continue the run that stopped (cancelled, crashed or failed) at its first pending step.')
      .argument('<folder>', 'the project folder'),
  ).action(exiting((folder: string, flags: RunFlags & ConversationFlag) => runSession({ folder, flags, start: (workbench) => workbench.request('session:resume', conversationOf(flags)) })));

  withRunFlags(
    withConversationOption(program.command('retry'))
      .description('Try the failed steps ([!]) of the latest request again, each told why it failed; done steps are kept.')
      .argument('<folder>', 'the project folder'),
  ).action(exiting((folder: string, flags: RunFlags & ConversationFlag) => runSession({ folder, flags, start: (workbench) => workbench.request('session:retry-failed', conversationOf(flags)) })));

  withRunFlags(
    withConversationOption(program.command('regenerate'))
      .description('Undo to before a message (files and conversation), then send that request again.')
      .argument('<folder>', 'the project folder')
      .argument('<messageId>', 'a message id, as `history` shows it (a summary stands for the request it answers)'),
  ).action(
    exiting((folder: string, messageId: string, flags: RunFlags & ConversationFlag) =>
      runSession({ folder, flags, start: (workbench) => regenerate(workbench, { messageId, ...conversationOf(flags) }, flags) }),
    ),
  );
}

/**
 * Regenerate undoes first, by the same rules as undo: the files another conversation changed since are
 * listed on stderr and asked about on a terminal (not with --json), else kept.
 */
async function regenerate(workbench: Workbench, target: { messageId: string; conversationId?: string }, flags: RunFlags): Promise<StartedRun> {
  const interrupted = new AbortController();
  const asking = {
    print: (text: string) => shownStderr.text(`${text}\n`),
    prompter: isInteractive() && !flags.json ? terminalPrompter(new LiveLine(shownStderr, false), () => interrupted.abort()) : null,
    signal: interrupted.signal,
  };
  const choices = await chooseForConflicts(await workbench.request('session:undo-preview', target), asking);
  if (choices === null) throw new CliError('Nothing was regenerated: the files and the conversation are as they were.', exitCodes.interrupted);
  return workbench.request('session:regenerate', { ...target, choices });
}

function collectPaths(value: string, earlier: string[] | undefined): string[] {
  return [...(earlier ?? []), value];
}
