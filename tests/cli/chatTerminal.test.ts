import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { cliBin, useCli, watched } from '../support/cliProcess.js';
import { useFakeLlm } from '../support/fakeLlm/useFakeLlm.js';
import { call, planText, say } from '../support/rpiScript.js';
import { useTempFolders } from '../support/tempFolder.js';

/** util-linux `script` gives the CLI a real pseudo-terminal for stdin, stdout and stderr. */
const scriptBin = '/usr/bin/script';

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.skipIf(!existsSync(scriptBin))('rpi-workbench chat on a terminal (a pseudo-terminal through `script`)', () => {
  const tempFolder = useTempFolders('rpi-cli-chat-tty-');
  const llm = useFakeLlm();
  const cli = useCli();

  function onTerminal(args: string[]) {
    // exec: the CLI itself leads the terminal's foreground, so a Ctrl-C during a run reaches it as it would from a shell.
    const command = `${quote(['stty', 'cols', '120'])} && exec ${quote([process.execPath, cliBin, ...args])}`;
    const child = spawn(scriptBin, ['-qefc', command, '/dev/null'], { env: cli.environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    cli.track(child);
    const terminal = watched(child);
    return {
      ...terminal,
      /** Waits until the screen shows `text` for the `count`th time, then types `keys`. */
      async answer(text: string, keys: string, count = 1) {
        await terminal.waitFor('stdout', new RegExp(`(${escaped(text)}[^]*){${count}}`));
        child.stdin.write(keys);
      },
    };
  }

  const writes = (file: string, summary: string) => [say('Looked.'), say(planText(`Write ${file}`)), call('write_file', { path: file, content: `${file}\n` }), say('Written.'), say(summary)];

  it('two requests with their approvals asked at the prompt, /undo, Ctrl-C cancelling a run but not the session, then Ctrl-D ends it with exit 0', async () => {
    const root = await tempFolder();
    llm().enqueue(
      ...writes('notes.txt', '## Notes\n\nWrote **notes.txt**:\n\n- one line'),
      ...writes('todo.txt', 'Wrote `todo.txt`.'),
      // The third request's research holds its stream open after the model starts thinking: the run is in progress.
      say('never finished', { reasoning: 'Let me look at everything.', fault: { type: 'stall-after-headers', afterChunks: 2 } }),
    );
    const prompt = `${path.basename(root)} · fake-model › `;

    const terminal = onTerminal(['chat', root, '--base-url', llm().baseUrl, '--model', 'fake-model']);
    await terminal.answer(prompt, 'Write notes\r');
    await terminal.answer('[v]iew details > ', 'a\r');
    await terminal.answer(prompt, 'Write a todo\r', 2);
    await terminal.answer('[v]iew details > ', 'a\r', 2);
    await terminal.answer(prompt, '/undo\r', 3);
    await terminal.answer(prompt, 'Hold on\r', 4);
    await terminal.answer('thinking…', '\x03');
    await terminal.answer(prompt, '/history\r', 5);
    await terminal.answer(prompt, '\x04', 6);
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    const screen = done.stdout;
    // The summaries as formatted Markdown: the heading and bold in bold, code in cyan, the list with a bullet.
    expect(screen).toContain('\x1b[1mNotes\x1b[m\r\n\r\nWrote \x1b[1mnotes.txt\x1b[m:\r\n\r\n• one line\r\n');
    expect(screen).toContain('Wrote \x1b[36mtodo.txt\x1b[m.\r\n');
    expect(screen).not.toContain('**notes.txt**');
    expect(screen).toMatch(/Undoing \S+ "Write a todo"…\r\nRestored 1 file:\r\n {2}todo\.txt\r\n/);
    // Ctrl-C cancelled the held run, and the session went on: /history shows it, still waiting to be resumed.
    expect(screen).toContain('Cancelling… (press Ctrl-C again to stop at once)');
    expect(screen).toContain('Cancelled; the run is resumable: /resume\r\n');
    const table = screen.slice(screen.lastIndexOf('ID  '));
    expect(table.split('\r\n').slice(1, 4)).toEqual([
      expect.stringMatching(/ user +.+ +Write notes {2}\[Plan: 1\/1 done\]$/),
      expect.stringMatching(/ assistant +.+ +## Notes$/),
      expect.stringMatching(/ user +.+ +Hold on$/),
    ]);
    expect(existsSync(path.join(root, 'todo.txt'))).toBe(false);
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('notes.txt\n');
    expect(existsSync(path.join(root, '.workbench', 'lock'))).toBe(false);
  });

  it('Ctrl-C clears a line being typed; at an empty prompt it asks for a second one, which ends the session; ↑ brings back earlier requests', async () => {
    const root = await tempFolder();
    llm().enqueue(...writes('a.txt', 'Wrote a.'));
    const prompt = `${path.basename(root)} · fake-model › `;

    const terminal = onTerminal(['chat', root, '--base-url', llm().baseUrl, '--model', 'fake-model', '--yes']);
    await terminal.answer(prompt, 'Write a\r');
    await terminal.answer(prompt, 'half a thought', 2);
    await terminal.answer('half a thought', '\x03');
    await terminal.answer(prompt, '\x03', 3);
    await terminal.answer('(To end the session, press Ctrl-C again, or Ctrl-D, or type /exit.)', '\x1b[A');
    await terminal.answer(`${prompt}Write a`, '\x03\x03\x03');
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    // Nothing but the first request was sent: the typed line, the recalled one and the Ctrl-Cs sent nothing.
    expect(llm().chatRequests()).toHaveLength(5);
    expect(existsSync(path.join(root, '.workbench', 'lock'))).toBe(false);
  });
});
