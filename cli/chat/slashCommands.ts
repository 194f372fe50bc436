/** The chat's slash commands, in the order /help lists them. */
export const chatCommands = [
  { name: 'undo', usage: '/undo [id]', help: 'undo a request (default: the latest): its files and the conversation go back to before it' },
  { name: 'regenerate', usage: '/regenerate [id]', help: 'undo a request (default: the latest), then send it again' },
  { name: 'history', usage: '/history', help: 'the conversation: id, role, time and first line of every message' },
  { name: 'diff', usage: '/diff [id]', help: 'what a request (default: the latest) changed, as a git-style diff' },
  { name: 'resume', usage: '/resume', help: 'go on with the run that stopped (cancelled, failed) at its first pending step' },
  { name: 'retry', usage: '/retry', help: 'try the failed steps of the latest request again' },
  { name: 'new', usage: '/new', help: 'start a new conversation in the folder and talk in it' },
  { name: 'conversations', usage: '/conversations', help: "the folder's conversations: id, created, last activity, requests, title (* this session's, ● running)" },
  { name: 'switch', usage: '/switch <id>', help: 'talk in another conversation of the folder from now on' },
  { name: 'rename', usage: '/rename <title>', help: "give this session's conversation a title" },
  { name: 'context', usage: '/context [<path> | clear]', help: 'attach a file or folder to the next request; alone: list what is attached; clear: drop it all' },
  { name: 'model', usage: '/model [phase] [name]', help: 'use another model for every phase (or, a phase name first, for that phase) for the rest of the session; alone: show the ones in use' },
  { name: 'help', usage: '/help', help: 'this list' },
  { name: 'exit', usage: '/exit', help: 'end the session (also Ctrl-D or Ctrl-C at an empty prompt)' },
] as const;

export type ChatCommandName = (typeof chatCommands)[number]['name'];

/** What a line typed in the chat asks for. */
export type ChatLine =
  | { kind: 'empty' }
  | { kind: 'request'; text: string }
  | { kind: 'command'; command: Exclude<ChatCommandName, 'exit'>; argument: string }
  | { kind: 'exit' }
  | { kind: 'invalid'; message: string };

const aliases: Record<string, ChatCommandName> = { quit: 'exit', '?': 'help' };
const withoutArgument: ReadonlySet<ChatCommandName> = new Set(['history', 'resume', 'retry', 'new', 'conversations', 'help', 'exit']);

/** `/word` then a space or the end: a path such as `/etc/hosts is wrong` is a request, not a command. */
const commandPattern = /^\/([A-Za-z?][\w-]*)(?:\s+([^]*))?$/;

/**
 * Reads what was sent at the prompt: a slash command (with its argument), a request, or why the command
 * cannot be run; nothing is sent for a command. A command is one line: text of several lines (a paste)
 * is a request, whatever its first line says.
 */
export function parseChatLine(line: string): ChatLine {
  const text = line.trim();
  if (text === '') return { kind: 'empty' };
  if (text.includes('\n')) return { kind: 'request', text };
  const match = commandPattern.exec(text);
  if (!match) return { kind: 'request', text };
  const name = (match[1] ?? '').toLowerCase();
  const argument = (match[2] ?? '').trim();
  const command = aliases[name] ?? chatCommands.find((known) => known.name === name)?.name;
  if (command === undefined) return { kind: 'invalid', message: `There is no command /${name}: type /help for the list. Nothing was sent.` };
  if (argument !== '' && withoutArgument.has(command)) return { kind: 'invalid', message: `/${command} takes no argument. Nothing was run.` };
  return command === 'exit' ? { kind: 'exit' } : { kind: 'command', command, argument };
}

/** /help: every command with what it does, and the keys. */
export function chatHelp(): string {
  const width = Math.max(...chatCommands.map((command) => command.usage.length));
  return [
    'Type a request and press Enter: it runs Research → Plan → Implement → Summary on the folder.',
    'Words like @src/app.ts attach that file (or folder) to the request.',
    '',
    ...chatCommands.map((command) => `  ${command.usage.padEnd(width)}  ${command.help}`),
    '',
    'Keys: ↑/↓ earlier lines · Ctrl-J starts a new line in a request (a paste keeps its lines, as one request) · Ctrl-C cancels a running request (twice: stops it at once) · Ctrl-C or Ctrl-D at an empty prompt ends the session.',
  ].join('\n');
}
