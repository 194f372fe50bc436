import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { cliBin, useCli, watched } from '../../support/cliProcess.js';
import { useFakeLlm, useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { call, firstUserText, heldFirstTurn, phaseOfRequest, planText, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

/** util-linux `script` gives the CLI a real pseudo-terminal for stdin, stdout and stderr. */
const scriptBin = '/usr/bin/script';

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Each test runs two or three whole requests through a pseudo-terminal: on a loaded 2-core machine that
// can take longer than the default ceiling, so these get a longer one (nothing here waits on time).
describe.skipIf(!existsSync(scriptBin))('rpi-workbench chat on a terminal (a pseudo-terminal through `script`)', { timeout: 60_000 }, () => {
  const tempFolder = useTempFolders('rpi-cli-chat-tty-');
  const llm = useFakeLlm();
  const cli = useCli({ nodeReports: true });

  /** The CLI on a pseudo-terminal; with `stdinFile`, stdin is that file instead (stdout and stderr stay the terminal). */
  function onTerminal(args: string[], { stdinFile, env }: { stdinFile?: string; env?: Record<string, string> } = {}) {
    // exec: the CLI itself leads the terminal's foreground, so a Ctrl-C during a run reaches it as it would from a shell.
    const command = `${quote(['stty', 'cols', '120'])} && exec ${quote([process.execPath, cliBin, ...args])}${stdinFile === undefined ? '' : ` < ${quote([stdinFile])}`}`;
    const child = spawn(scriptBin, ['-qefc', command, '/dev/null'], { env: cli.environment(env), stdio: ['pipe', 'pipe', 'pipe'] });
    cli.track(child);
    const terminal = watched(child);
    return {
      ...terminal,
      type: (keys: string) => child.stdin.write(keys),
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
    await terminal.answer('Undo it? [y/N] ', 'y\r');
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
    // /undo asked first, naming the request and the files it puts back.
    expect(screen).toMatch(/Undo \S+ "Write a todo": the conversation is cut before it, and the files go back to before it\.\r\nFiles that change \(1\):\r\n {2}todo\.txt {2}removed \(created since\)\r\n[^]*Undo it\? \[y\/N\] [^]*y\r/);
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

  it('Ctrl-C clears a line being typed, and at an empty prompt ends the session; ↑ brings back earlier requests', async () => {
    const root = await tempFolder();
    llm().enqueue(...writes('a.txt', 'Wrote a.'));
    const prompt = `${path.basename(root)} · fake-model › `;

    const terminal = onTerminal(['chat', root, '--base-url', llm().baseUrl, '--model', 'fake-model', '--yes']);
    await terminal.answer(prompt, 'Write a\r');
    await terminal.answer(prompt, 'half a thought', 2);
    await terminal.answer('half a thought', '\x03');
    await terminal.answer(prompt, '\x1b[A', 3);
    // The recalled line (drawn with the prompt in one piece; typed text comes after a cursor move), then
    // Ctrl-C twice: the first drops the line, the second, at an empty prompt, ends the session.
    await terminal.answer(`${prompt}Write a`, '\x03\x03');
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    // Nothing but the first request was sent: the typed line, the recalled one and the Ctrl-Cs sent nothing.
    expect(llm().chatRequests()).toHaveLength(5);
    expect(existsSync(path.join(root, '.workbench', 'lock'))).toBe(false);
  });

  it('an editor opened from an approval reads the terminal itself: the chat takes none of what is typed in it', async () => {
    const root = await tempFolder();
    // The editor says it is reading, then takes the file's content from a line typed on the terminal.
    const editor = path.join(root, '..', `${path.basename(root)}-editor.sh`);
    await writeFile(editor, `#!/bin/sh\necho 'Editor reading.'\nread content\nprintf '{"path":"a.txt","content":"%s\\\\n"}' "$content" > "$1"\n`);
    await chmod(editor, 0o755);
    llm().enqueue(...writes('a.txt', 'Wrote a.'));
    const prompt = `${path.basename(root)} · fake-model › `;

    const terminal = onTerminal(['chat', root, '--base-url', llm().baseUrl, '--model', 'fake-model'], { env: { EDITOR: editor } });
    await terminal.answer(prompt, 'Write a\r');
    await terminal.answer('[v]iew details > ', 'e\r');
    await terminal.answer('Editor reading.', 'typed in the editor\r');
    // The question asked again, not the line before it: Enter typed ahead of a question is a line feed there, not an answer.
    await terminal.answer('[v]iew details > ', 'a\r', 2);
    await terminal.answer(prompt, '\x04', 2);
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    expect(done.stdout).toContain('With your edits, approving does what is shown above.');
    expect(done.stdout).toContain('Approved with your edits.');
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('typed in the editor\n');
    // What was typed in the editor was not held for the chat's next prompt.
    expect(done.stdout).not.toContain('Typed ahead');
  });

  it('a summary marked cannot format (6,000 nested quotes) is printed as it is, and the next run is shown once (stdin piped, stdout a terminal)', async () => {
    const root = await tempFolder();
    const hostile = `${'>'.repeat(6000)} x`;
    llm().enqueue(...writes('a.txt', hostile), ...writes('b.txt', 'Wrote **b.txt**.'));
    const requests = path.join(await tempFolder(), 'requests.txt');
    await writeFile(requests, 'Write a\nWrite b\n');

    const done = await onTerminal(['chat', root, '--base-url', llm().baseUrl, '--model', 'fake-model', '--yes'], { stdinFile: requests }).exited;

    expect(done.code).toBe(0);
    const screen = done.stdout;
    expect(screen).not.toContain('Maximum call stack size exceeded');
    expect(screen).toContain(`${hostile}\r\n`);
    // The second summary is formatted; each run's phases and its end are shown once, not once per run so far.
    expect(screen).toContain('Wrote \x1b[1mb.txt\x1b[m.\r\n');
    expect(screen.match(/▸ Research/g)).toHaveLength(2);
    expect(screen.match(/Done in /g)).toHaveLength(2);
    expect(existsSync(path.join(root, 'b.txt'))).toBe(true);
  });

  it('a bracketed paste is one request, its newline kept and its "/undo" line not run; /undo asks first, and "n" keeps everything', async () => {
    const root = await tempFolder();
    llm().enqueue(...writes('a.txt', 'Wrote a.'), ...writes('b.txt', 'Wrote b.'));
    const prompt = `${path.basename(root)} · fake-model › `;

    const terminal = onTerminal(['chat', root, '--base-url', llm().baseUrl, '--model', 'fake-model', '--yes']);
    const promptAfter = (text: string) => new RegExp(`${escaped(text)}[^]*${escaped(prompt)}`);
    await terminal.answer(prompt, 'Write a\r');
    await terminal.waitFor('stdout', promptAfter('Wrote a.'));
    terminal.type('\x1b[200~Please fix this error:\r/undo\x1b[201~');
    // Pasted, nothing runs: the text waits at the prompt, both of its lines, for Enter.
    await terminal.answer(`${prompt}Please fix this error:\r\n/undo`, '\r');
    await terminal.waitFor('stdout', promptAfter('Wrote b.'));
    terminal.type('/undo\r');
    await terminal.answer('Undo it? [y/N] ', 'n\r');
    await terminal.answer('Nothing was undone', '\x04');
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    const screen = done.stdout;
    expect(screen).toMatch(/Undo \S+ "Please fix this error:": the conversation is cut before it, and the files go back to before it\.\r\nFiles that change \(1\):\r\n {2}b\.txt {2}removed \(created since\)\r\n/);
    expect(screen).not.toContain('Undoing');
    expect(screen).not.toContain('Restored');
    // Bracketed paste was on for the session, and off again at its end.
    expect(screen).toContain('\x1b[?2004h');
    expect(screen.lastIndexOf('\x1b[?2004l')).toBeGreaterThan(screen.lastIndexOf('\x1b[?2004h'));
    // The paste went to the model as one request, its newline kept, and nothing was undone.
    const research = llm().chatRequests().filter((request) => phaseOfRequest(request) === 'research');
    expect(research).toHaveLength(2);
    expect(firstUserText(research[1]!)).toContain('Please fix this error:\n/undo');
    const conversation = (await readFile(path.join(conversationDir(root), 'conversation.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { role: string; text: string });
    expect(conversation.map((message) => message.text)).toEqual(['Write a', 'Wrote a.', 'Please fix this error:\n/undo', 'Wrote b.']);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('a.txt\n');
    expect(await readFile(path.join(root, 'b.txt'), 'utf8')).toBe('b.txt\n');
  });
});

describe.skipIf(!existsSync(scriptBin))('rpi-workbench chat on a terminal: keys typed while a run works', { timeout: 60_000 }, () => {
  const tempFolder = useTempFolders('rpi-cli-chat-typed-');
  const startLlm = useFakeLlmStarter();
  const cli = useCli({ nodeReports: true });

  /** A chat on a terminal whose first request's research answer is held until `release()`: the run is working meanwhile. */
  async function heldRun() {
    const root = await tempFolder();
    const turns = [say('Looked.'), say(planText('Write a.txt')), call('write_file', { path: 'a.txt', content: 'a.txt\n' }), say('Written.'), say('Wrote a.')];
    const { script, asked, release } = heldFirstTurn(turns);
    const llm = await startLlm({ script });
    const prompt = `${path.basename(root)} · fake-model › `;
    const command = `${quote(['stty', 'cols', '120'])} && exec ${quote([process.execPath, cliBin, 'chat', root, '--base-url', llm.baseUrl, '--model', 'fake-model', '--yes'])}`;
    const child = spawn(scriptBin, ['-qefc', command, '/dev/null'], { env: cli.environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    cli.track(child);
    const terminal = watched(child);
    await terminal.waitFor('stdout', prompt);
    child.stdin.write('Write a\r');
    await asked;
    return { root, llm, prompt, terminal, type: (keys: string) => child.stdin.write(keys), release };
  }

  it('lines are shown at the next prompt to edit, never run: a "/undo" typed ahead undoes nothing', async () => {
    const { root, llm, prompt, terminal, type, release } = await heldRun();
    // Typed while the run works (the terminal in its normal mode, which echoes it).
    type('/undo\r');
    await terminal.waitFor('stdout', /Write a[^]*\/undo/);
    release();
    // The run ends; the typed line is at the prompt, not run: Ctrl-C drops it, Ctrl-D ends the session.
    await terminal.waitFor('stdout', `${prompt}/undo`);
    type('\x03');
    await terminal.waitFor('stdout', new RegExp(`${escaped(prompt)}/undo[^]*${escaped(prompt)}`));
    type('\x04');
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    expect(done.stdout).toContain('Wrote a.');
    expect(done.stdout).not.toContain('Undo it?');
    expect(done.stdout).not.toContain('Undoing');
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('a.txt\n');
    expect(llm.chatRequests()).toHaveLength(5);
  });

  it('Ctrl-D (the end of input in the normal mode) ends the session once the run is over, as at the prompt', async () => {
    const { root, llm, prompt, terminal, type, release } = await heldRun();
    // Read only once raw mode is back, the normal mode's end of input would be a NUL byte, a key that does nothing.
    type('\x04');
    release();
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    expect(done.stdout).toContain('Wrote a.');
    // The run went on to its end; no prompt came after it.
    expect(done.stdout.slice(done.stdout.indexOf('Wrote a.'))).not.toContain(prompt);
    expect(await readFile(path.join(root, 'a.txt'), 'utf8')).toBe('a.txt\n');
    expect(llm.chatRequests()).toHaveLength(5);
    expect(existsSync(path.join(root, '.workbench', 'lock'))).toBe(false);
  });
});
