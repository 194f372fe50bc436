import type { Command } from 'commander';
import { chatSession } from '../chat/chatSession.js';
import { exiting } from './exit.js';
import { withRunFlags, type RunFlags } from './runFlags.js';

export function addChatCommand(program: Command): void {
  const chat = withRunFlags(
    program
      .command('chat')
      .description('An interactive session on a folder: requests one after another, each a full run, and slash commands (/help lists them).')
      .argument('<folder>', 'the project folder'),
  );
  // The run options, but for --json, which a session for a person refuses (chatSession.ts says why).
  chat.options.find((option) => option.long === '--json')?.hideHelp();
  chat
    .addHelpText(
      'after',
      `
On a terminal: line editing, ↑/↓ for earlier lines; Ctrl-C cancels the running request and keeps the session;
Ctrl-C or Ctrl-D at an empty prompt ends it, exit 0. Approvals are asked as \`run\` asks them.
Without a terminal: one request or slash command per line from stdin, each finished before the next is read;
approvals as \`run\` handles them there (denied unless --yes). End of input ends the session: exit 0 when
every request and command went well, else 1.`,
    )
    .action(exiting((folder: string, flags: RunFlags) => chatSession(folder, flags)));
}
