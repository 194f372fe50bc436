import './withdrawCredentialsFirst.js';
import { Command, CommanderError } from 'commander';
import { exitCodes } from './commands/cliError.js';
import { exitWith, failWith, quietOnClosedPipes } from './commands/exit.js';
import { addChatCommand } from './commands/chatCommand.js';
import { addConversationsCommand } from './commands/conversationsCommand.js';
import { addDiffCommand } from './commands/diffCommand.js';
import { addHistoryCommand } from './commands/historyCommand.js';
import { addRevertCommand } from './commands/revertCommand.js';
import { addRunCommands } from './commands/runCommands.js';
import { addServeCommand } from './commands/serveCommand.js';
import { addUndoCommand } from './commands/undoCommand.js';
import { withdrawCredentials } from '../engine/index.js';

/**
 * rpi-workbench: run, resume, retry, regenerate, chat, history, conversations, undo, diff, revert, serve. Exit codes (cliError.ts): 0 done,
 * 1 failed or cancelled, 2 usage or configuration error, 130 stopped at once by a second Ctrl-C.
 */
const program = new Command()
  .name('rpi-workbench')
  .description('Research → Plan → Implement with an LLM agent on a project folder.')
  // Set before the commands are added: subcommands copy these settings when they are created.
  .configureOutput({ outputError: (text, write) => write(`rpi-workbench: ${text.replace(/^error: /, '')}`) })
  .showHelpAfterError()
  .exitOverride();

program.addHelpText(
  'after',
  `
Environment:
  OPENAI_BASE_URL           the model server, when --base-url is not given
  OPENAI_API_KEY            the API key, when --api-key is not given
  RPI_MODEL                 the model, when --model is not given
  RPI_WORKBENCH_CONFIG_DIR  where the user's settings are read (default: the desktop app's config directory)

Exit codes:
  0    the run is done
  1    the run failed or was cancelled (it is resumable)
  2    usage or configuration error: nothing was started
  130  a second Ctrl-C stopped it at once`,
);

// A key given with --api-key is overwritten in this process's command line once it is read.
program.hook('preAction', (_program, action) => {
  const { apiKey } = action.opts<{ apiKey?: string }>();
  if (apiKey) withdrawCredentials([apiKey]);
});

addRunCommands(program);
addChatCommand(program);
addHistoryCommand(program);
addConversationsCommand(program);
addUndoCommand(program);
addDiffCommand(program);
addRevertCommand(program);
addServeCommand(program);

quietOnClosedPipes();
program.parseAsync(process.argv).catch((error: unknown) => {
  // Commander has already printed its message (and the command's help, with its valid options).
  if (error instanceof CommanderError) return exitWith(error.exitCode === 0 ? exitCodes.done : exitCodes.usage);
  return failWith(error);
});
