import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatTerminal } from '../../../cli/chat/chatTerminal.js';

/** The chat's terminal on streams: keys written to `type`, what it draws in `screen()`. */
function chatTerminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let screen = '';
  output.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
  const terminal = new ChatTerminal({ input, output, history: [] });
  return { terminal, type: (keys: string) => input.write(keys), screen: () => screen };
}

/** A read, and whether it has given its line yet. */
function reading(terminal: ChatTerminal) {
  const state: { line: string | null | undefined } = { line: undefined };
  const line = terminal.read('› ').then((read) => (state.line = read));
  return { line, state };
}

describe('the chat’s keys: only Enter at the prompt sends, and only what is shown there', () => {
  const opened: ChatTerminal[] = [];
  afterEach(() => {
    for (const terminal of opened.splice(0)) terminal.end();
  });
  const open = () => {
    const chat = chatTerminal();
    opened.push(chat.terminal);
    return chat;
  };

  it('a bracketed paste is put into the line, its line breaks kept (CR LF as one) and its control keys dropped; Enter sends it as one', async () => {
    const { terminal, type } = open();
    const read = reading(terminal);
    type('\x1b[200~Please fix this:\r\n  at x\x03\x1b[A\r/undo\x1b[201~');
    await nextTurn();
    expect(read.state.line).toBeUndefined();
    type('\r');
    expect(await read.line).toBe('Please fix this:\n  at x\n/undo');
  });

  it('a line feed (Ctrl-J, or Enter typed ahead while a run worked) starts a new line instead of sending', async () => {
    const { terminal, type } = open();
    const read = reading(terminal);
    type('/undo\nand more');
    await nextTurn();
    expect(read.state.line).toBeUndefined();
    type('\r');
    expect(await read.line).toBe('/undo\nand more');
  });

  it('lines that came in with the one sent are shown at the next prompt, not run; Ctrl-C drops them', async () => {
    const { terminal, type, screen } = open();
    const first = reading(terminal);
    type('Write a\r/undo\r');
    expect(await first.line).toBe('Write a');

    const second = reading(terminal);
    await nextTurn();
    expect(second.state.line).toBeUndefined();
    expect(screen()).toContain('(Typed ahead, and not run: press Enter to send it as one request, or edit it; Ctrl-C drops it.)');
    // eslint-disable-next-line no-control-regex -- readline ends its redraw by putting the cursor at its column
    expect(screen()).toMatch(/› \/undo(?:\x1b\[\d+G)?$/);
    type('\x03');
    type('Something else\r');
    expect(await second.line).toBe('Something else');
  });

  it('bracketed paste is on only while the prompt reads: a run gets the line mode without it, where a long paste could lose its end mark', async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const output = new PassThrough();
    let screen = '';
    output.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
    const terminal = new ChatTerminal({ input, output, history: [] });
    opened.push(terminal);
    const [on, off] = ['\x1b[?2004h', '\x1b[?2004l'];
    const read = terminal.read('› ');
    await nextTurn();
    expect(screen.lastIndexOf(on)).toBeGreaterThan(screen.lastIndexOf(off));
    input.write('Write a\r');
    expect(await read).toBe('Write a');
    await nextTurn();
    expect(screen.lastIndexOf(off)).toBeGreaterThan(screen.lastIndexOf(on));
  });
});
