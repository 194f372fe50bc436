import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatTerminal } from '../../../cli/chat/chatTerminal.js';

/**
 * The chat's terminal on streams: keys written to `type`, what it draws in `screen()`. With `tty`, the input
 * says it is a terminal and records each raw mode switch in `modes`.
 */
function chatTerminal({ tty = false }: { tty?: boolean } = {}) {
  const modes: boolean[] = [];
  const input = tty ? Object.assign(new PassThrough(), { isTTY: true, setRawMode: (mode: boolean) => modes.push(mode) }) : new PassThrough();
  const output = new PassThrough();
  let screen = '';
  output.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
  const terminal = new ChatTerminal({ input, output, history: [] });
  return { terminal, modes, type: (keys: string | Buffer) => input.write(keys), screen: () => screen };
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
  const open = (options: { tty?: boolean } = {}) => {
    const chat = chatTerminal(options);
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

  it('bracketed paste is on only while the prompt reads: what is typed while a run works is plain lines', async () => {
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

  it('the terminal stays in raw mode from the start to the end of the session: never its normal mode between a line and the next prompt, where keys typed in it would be read wrongly once raw mode came back', async () => {
    const { terminal, modes, type } = open({ tty: true });
    const first = terminal.read('› ');
    type('Write a\r');
    expect(await first).toBe('Write a');
    // A run works, then a question, then the next prompt.
    const answer = terminal.confirm('Undo it? [y/N] ');
    type('n\r');
    expect(await answer).toBe(false);
    const second = reading(terminal);
    await nextTurn();
    expect(modes.every((mode) => mode)).toBe(true);
    terminal.end();
    expect(await second.line).toBeNull();
    expect(modes.at(-1)).toBe(false);
  });

  it('keys typed while a run works are held as the normal mode holds them: echoed, Enter a line feed, an erase taking back one; the next prompt shows them, unsent', async () => {
    const { terminal, type, screen } = open({ tty: true });
    const first = terminal.read('› ');
    type('Write a\r');
    expect(await first).toBe('Write a');
    type('/undx\x7fo\rnext');
    await nextTurn();
    expect(screen()).toContain('/undx\b \bo\nnext');
    const second = reading(terminal);
    await nextTurn();
    expect(second.state.line).toBeUndefined();
    type('\r');
    expect(await second.line).toBe('/undo\nnext');
  });

  it('Ctrl-D typed while a run works ends the input at the start of a line (the session ends once the run is over), and is nothing after text on it', async () => {
    const { terminal, type } = open({ tty: true });
    const first = terminal.read('› ');
    type('Write a\r');
    expect(await first).toBe('Write a');
    type('half\x04');
    await nextTurn();
    const second = reading(terminal);
    await nextTurn();
    expect(second.state.line).toBeUndefined();
    type('\r');
    expect(await second.line).toBe('half');
    type('\x04');
    await nextTurn();
    expect(await terminal.read('› ')).toBeNull();
  });

  it('Ctrl-C typed while a run works is a SIGINT to the process, as from the terminal, and is not held for the prompt', async () => {
    const { terminal, type, screen } = open({ tty: true });
    const first = terminal.read('› ');
    type('Write a\r');
    expect(await first).toBe('Write a');
    const interrupted = new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
    type('\x03');
    await interrupted;
    expect(screen()).toContain('^C');
    const second = terminal.read('› ');
    type('Go on\r');
    expect(await second).toBe('Go on');
  });

  it('a character whose bytes come on both sides of the prompt coming back stays whole', async () => {
    const { terminal, type } = open({ tty: true });
    const first = terminal.read('› ');
    type('Write a\r');
    expect(await first).toBe('Write a');
    const e = Buffer.from('é');
    type(e.subarray(0, 1));
    await nextTurn();
    const second = terminal.read('› ');
    type(e.subarray(1));
    type('\r');
    expect(await second).toBe('é');
  });
});
