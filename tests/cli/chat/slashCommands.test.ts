import { describe, expect, it } from 'vitest';
import { chatCommands, chatHelp, parseChatLine } from '../../../cli/chat/slashCommands.js';

describe('a line typed in the chat', () => {
  it('is a request unless it starts with /word: paths and empty lines are not commands', () => {
    expect(parseChatLine('  Add a greeting module  ')).toEqual({ kind: 'request', text: 'Add a greeting module' });
    expect(parseChatLine('/etc/hosts is wrong, fix the copy in config/')).toEqual({ kind: 'request', text: '/etc/hosts is wrong, fix the copy in config/' });
    expect(parseChatLine('/src/app.ts')).toEqual({ kind: 'request', text: '/src/app.ts' });
    expect(parseChatLine('   ')).toEqual({ kind: 'empty' });
  });

  it('reads each command with its argument, case and spacing aside; /quit and /? are aliases', () => {
    expect(parseChatLine('/undo')).toEqual({ kind: 'command', command: 'undo', argument: '' });
    expect(parseChatLine('/UNDO  m-123 ')).toEqual({ kind: 'command', command: 'undo', argument: 'm-123' });
    expect(parseChatLine('/regenerate m-9')).toEqual({ kind: 'command', command: 'regenerate', argument: 'm-9' });
    expect(parseChatLine('/context docs/my notes.md')).toEqual({ kind: 'command', command: 'context', argument: 'docs/my notes.md' });
    expect(parseChatLine('/context clear')).toEqual({ kind: 'command', command: 'context', argument: 'clear' });
    expect(parseChatLine('/model gpt-4o-mini')).toEqual({ kind: 'command', command: 'model', argument: 'gpt-4o-mini' });
    expect(parseChatLine('/exit')).toEqual({ kind: 'exit' });
    expect(parseChatLine('/quit')).toEqual({ kind: 'exit' });
    expect(parseChatLine('/?')).toEqual({ kind: 'command', command: 'help', argument: '' });
    for (const { name } of chatCommands.filter((command) => command.name !== 'exit')) expect(parseChatLine(`/${name}`)).toEqual({ kind: 'command', command: name, argument: '' });
  });

  it('refuses an unknown command, or an argument to one that takes none, in one line that says nothing was sent', () => {
    expect(parseChatLine('/frobnicate the thing')).toEqual({ kind: 'invalid', message: 'There is no command /frobnicate: type /help for the list. Nothing was sent.' });
    expect(parseChatLine('/history all')).toEqual({ kind: 'invalid', message: '/history takes no argument. Nothing was run.' });
    expect(parseChatLine('/exit now')).toEqual({ kind: 'invalid', message: '/exit takes no argument. Nothing was run.' });
  });

  it('/help lists every command with what it does, and the keys', () => {
    const help = chatHelp();
    for (const { usage } of chatCommands) expect(help).toMatch(new RegExp(`^  ${usage.replace(/[[\]|/]/g, '\\$&')} +\\S`, 'm'));
    expect(help).toContain('Ctrl-C cancels a running request');
    expect(help).toContain('Ctrl-D at an empty prompt ends the session');
  });
});
