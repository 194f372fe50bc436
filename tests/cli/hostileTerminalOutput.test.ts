/* eslint-disable no-control-regex -- these tests look for control characters on the screen */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { cliBin, useCli, watched } from '../support/cliProcess.js';
import { useFakeLlm } from '../support/fakeLlm/useFakeLlm.js';
import { call, planText, say } from '../support/rpiScript.js';
import { useTempFolders } from '../support/tempFolder.js';

/** util-linux `script` gives the CLI a real pseudo-terminal for stdin, stdout and stderr. */
const scriptBin = '/usr/bin/script';

const esc = '\x1b';
/** A command that, obeyed, erases its own line and draws a harmless question over it. */
const spoofedCommand = `touch pwned #${esc}[2K${esc}[G? Approve run_command ls`;
/** A plan label and a path that, obeyed, climb up and erase the lines printed before them. */
const climbingLabel = `Notes${esc}[1A${esc}[2K`;
const climbingPath = `notes${esc}[1A${esc}[2K${esc}[1A${esc}[2K.txt`;
/** A summary that, obeyed, sets the clipboard (OSC 52, BEL-terminated), the title (OSC 0, ST-terminated), sends an 8-bit CSI and flips the text. */
const hostileSummary = `Summary ${esc}]52;c;cHduZWQ=\x07 title ${esc}]0;owned${esc}\\ csi \u009b2J flip \u202Edetacilpmoc\u202C.`;

/** Sequences the model wrote, which must never reach the terminal as they are. */
const modelPayloads = [`${esc}[2K${esc}[G?`, `${esc}[1A`, `${esc}]52;`, `${esc}]0;`, '\x07', '\u009b', '\u202E'];

describe.skipIf(!existsSync(scriptBin))('model text on a terminal is shown, never obeyed (a pseudo-terminal through `script`)', () => {
  const tempFolder = useTempFolders('rpi-cli-hostile-tty-');
  const llm = useFakeLlm();
  const cli = useCli({ nodeReports: true });

  function onTerminal(args: string[]) {
    const command = quote(['stty', 'cols', '200']) + ' && ' + quote([process.execPath, cliBin, ...args]);
    const child = spawn(scriptBin, ['-qefc', command, '/dev/null'], { env: cli.environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    cli.track(child);
    const terminal = watched(child);
    return {
      ...terminal,
      /** Waits for the screen to show `pattern` a `count`th time, then types `keys`. */
      async answer(pattern: string, keys: string, count = 1) {
        await terminal.waitFor('stdout', new RegExp(`(${escaped(pattern)}[^]*){${count}}`));
        child.stdin.write(keys);
      },
    };
  }

  it('approvals, the plan review, tool lines, the status line and the streamed summary show escape sequences as visible text', async () => {
    const root = await tempFolder();
    llm().enqueue(
      say('Empty.'),
      say(planText(climbingLabel)),
      call('run_command', { command: spoofedCommand }),
      call('write_file', { path: climbingPath, content: 'x\n' }),
      say('Step done.'),
      say(hostileSummary),
    );

    const terminal = onTerminal(['run', root, 'Write notes', '--review-plan', '--base-url', llm().baseUrl, '--model', 'fake-model']);
    await terminal.answer('[v]iew again > ', 'a\r');
    await terminal.answer('[v]iew details > ', 'v\r');
    await terminal.answer('[v]iew details > ', 'd\r', 2);
    await terminal.answer('[v]iew details > ', 'd\r', 3);
    const done = await terminal.exited;

    const screen = done.stdout;
    for (const payload of modelPayloads) expect(screen).not.toContain(payload);
    expect(screen).not.toMatch(/[\x07\x08\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    // The only escape sequences left are the status line's clear, readline's moves back to the prompt, and the diffs' own colours.
    expect(escapeSequences(screen).filter((sequence) => !/^\x1b\[(2K|0J|\d+G|1m|3[126]m|m)$/.test(sequence))).toEqual([]);
    // The question names the command that would really run, its hidden part shown as text.
    expect(screen).toContain('? Approve run_command touch pwned #␛[2K␛[G? Approve run_command ls? Commands need your approval');
    expect(screen).toContain('"command": "touch pwned #\\u001b[2K\\u001b[G? Approve run_command ls"');
    expect(screen).toContain('- [ ] 1. Notes␛[1A␛[2K — do notes␛[1a␛[2k');
    expect(screen).toContain('▸ Implement: step 1/1: Notes␛[1A␛[2K');
    expect(screen).toContain('Implement: step 1/1: Notes␛[1A␛[2K · [░');
    expect(screen).toContain('notes␛[1A␛[2K␛[1A␛[2K.txt');
    expect(screen).toContain('Summary ␛]52;c;cHduZWQ=␇ title ␛]0;owned␛\\ csi <U+009B>2J flip <U+202E>detacilpmoc<U+202C>.');
    expect(existsSync(path.join(root, 'pwned'))).toBe(false);

    const history = await onTerminal(['history', root]).exited;
    expect(history.code).toBe(0);
    for (const payload of modelPayloads) expect(history.stdout).not.toContain(payload);
    expect(history.stdout).not.toContain(esc);
    expect(history.stdout).toContain('Summary ␛]52;c;cHduZWQ=␇ title ␛]0;owned␛\\ csi <U+009B>2J');
  });

  it('--json on a terminal escapes what JSON.stringify leaves raw (C1 controls, bidi overrides); the events parse back exact', async () => {
    const root = await tempFolder();
    llm().enqueue(say('Empty.'), say(planText('Notes')), say('Step done.'), say(hostileSummary));

    const run = await onTerminal(['run', root, 'Write notes', '--json', '--yes', '--base-url', llm().baseUrl, '--model', 'fake-model']).exited;
    const history = await onTerminal(['history', root, '--json']).exited;

    for (const screen of [run.stdout, history.stdout]) {
      expect(screen).not.toMatch(/[\x07\x1b\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
      expect(screen).toContain('Summary \\u001b]52;c;cHduZWQ=\\u0007 title \\u001b]0;owned\\u001b\\\\ csi \\u009b2J flip \\u202edetacilpmoc\\u202c.');
    }
    const objects = (screen: string) => screen.split('\r\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects(run.stdout)).toContainEqual(expect.objectContaining({ type: 'message-added', message: expect.objectContaining({ role: 'assistant', text: hostileSummary }) }));
    expect(objects(history.stdout)).toContainEqual(expect.objectContaining({ role: 'assistant', text: hostileSummary }));
  });

  it('the summary redirected to a file is shown the same way; the exact text stays in history --json', async () => {
    const root = await tempFolder();
    llm().enqueue(say('Empty.'), say(planText('Notes')), say('Step done.'), say(hostileSummary));

    const run = await cli.run(['run', root, 'Write notes', '--yes', '--base-url', llm().baseUrl, '--model', 'fake-model']);
    const history = await cli.run(['history', root, '--json']);

    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Summary ␛]52;c;cHduZWQ=␇ title ␛]0;owned␛\\ csi <U+009B>2J flip <U+202E>detacilpmoc<U+202C>.\n');
    expect(history.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown)).toContainEqual(
      expect.objectContaining({ role: 'assistant', text: hostileSummary }),
    );
  });
});

/** Each ESC on the screen with what follows it up to the sequence's final letter. */
function escapeSequences(screen: string): string[] {
  return screen.match(/\x1b[^a-zA-Z]*[a-zA-Z]?/g) ?? [];
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
