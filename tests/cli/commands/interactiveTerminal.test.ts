import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { cliBin, historyOf, useCli, watched } from '../../support/cliProcess.js';
import { useFakeLlm, useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { call, heldFirstTurn, planText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

/** util-linux `script` gives the CLI a real pseudo-terminal for stdin, stdout and stderr. */
const scriptBin = '/usr/bin/script';

describe.skipIf(!existsSync(scriptBin))('the CLI on a terminal (a pseudo-terminal through `script`)', () => {
  const tempFolder = useTempFolders('rpi-cli-tty-');
  const llm = useFakeLlm();
  const startLlm = useFakeLlmStarter();
  const cli = useCli({ nodeReports: true });

  function onTerminal(args: string[], env: Record<string, string> = {}) {
    const command = quote(['stty', 'cols', '120']) + ' && ' + quote([process.execPath, cliBin, ...args]);
    const child = spawn(scriptBin, ['-qefc', command, '/dev/null'], { env: cli.environment(env), stdio: ['pipe', 'pipe', 'pipe'] });
    cli.track(child);
    const terminal = watched(child);
    return {
      ...terminal,
      type: (keys: string) => child.stdin.write(keys),
      /** Waits for the screen to show `pattern`, then types `keys`. */
      async answer(pattern: RegExp | string, keys: string) {
        await terminal.waitFor('stdout', pattern);
        child.stdin.write(keys);
      },
    };
  }

  const writeNotes = () =>
    llm().enqueue(say('Empty.'), say(planText('Notes')), call('write_file', { path: 'notes.txt', content: 'original\n' }), say('Notes written.'), say('Wrote **notes.txt**.'));

  it('shows the live status line and asks for an approval: view, a refused edit, then an edit the engine accepts', async () => {
    const root = await tempFolder();
    const editor = path.join(root, '..', `${path.basename(root)}-editor.sh`);
    const mark = `${editor}.used`;
    // The first edit drops the content (the engine refuses it), the second changes it.
    await writeFile(
      editor,
      `#!/bin/sh\nif [ -e '${mark}' ]; then printf '{"path":"notes.txt","content":"edited\\\\n"}' > "$1"; else : > '${mark}'; printf '{"path":"notes.txt"}' > "$1"; fi\n`,
    );
    await chmod(editor, 0o755);
    writeNotes();

    const terminal = onTerminal(['run', root, 'Write notes', '--base-url', llm().baseUrl, '--model', 'fake-model'], { EDITOR: editor });
    // Each answer typed once the question is asked again: Enter typed before it answers nothing (see the test below).
    const askedAfter = (text: string) => new RegExp(`${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^]*\\[v\\]iew details > `);
    await terminal.answer('[v]iew details > ', 'v\r');
    await terminal.answer(askedAfter(`real path: ${path.join(root, 'notes.txt')}`), 'e\r');
    await terminal.answer(askedAfter('The edited arguments do not fit write_file: content:'), 'e\r');
    await terminal.answer(askedAfter('With your edits, approving does what is shown above.'), 'a\r');
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('edited\n');
    const screen = done.stdout;
    expect(screen).toMatch(/\? Approve write_file notes\.txt\? File changes need your approval \(expires in (10m 00s|9m \d\ds)\)\.\r\n/);
    expect(screen).toContain('Approved with your edits.');
    // Each state of the status line is drawn over the last: carriage return, clear the line, redraw.
    const drawn = screen.split('\r\u001b[2K');
    expect(drawn).toContainEqual(expect.stringMatching(/^Implement: step 1\/1: Notes · \[░{12}\] 0\/1 · \d+s · [\d.]+k? tokens$/));
    expect(drawn).toContainEqual(expect.stringMatching(/^Implement: step 1\/1: Notes · \[█{12}\] 1\/1 · \d+s · [\d.]+k? tokens$/));
    expect(screen).toContain('Wrote **notes.txt**.');
    expect(screen).toMatch(/Done in \d+s · [\d,]+ tokens in · [\d,]+ out\r?\n/);
    // The diff in the question, coloured as git colours it, and the run's --stat view last.
    expect(screen).toContain('\u001b[32m+original\u001b[m');
    expect(screen).toContain('\u001b[32m+edited\u001b[m');
    expect(screen.trimEnd().split('\r\n').slice(-2)).toEqual([' notes.txt | 1 \u001b[32m+\u001b[m', ' 1 file changed, 1 insertion(+)']);
  });

  it('an "a" and Enter typed while the run works do not answer the approval that comes after: they wait in its line, unsent, and only Enter typed there answers', async () => {
    const root = await tempFolder();
    const turns = [say('Empty.'), say(planText('Notes')), call('write_file', { path: 'notes.txt', content: 'original\n' }), say('Notes written.'), say('Nothing written.')];
    const { script, asked: researchAsked, release: released } = heldFirstTurn(turns);
    const held = await startLlm({ script });

    const terminal = onTerminal(['run', root, 'Write notes', '--base-url', held.baseUrl, '--model', 'fake-model']);
    await researchAsked;
    // Typed while the run works, before any question: the terminal, in its normal mode, echoes it.
    const shown = terminal.stdout().length;
    terminal.type('a\r');
    await terminal.waitFor('stdout', new RegExp(`^[^]{${shown}}[^]*a\\r\\n`));
    released();
    // The approval shows the typed "a" in its line, not taken as its answer; Ctrl-U clears it, then "d" denies.
    await terminal.answer(/\[v\]iew details > [^]*a/, '\x15d\r');
    const done = await terminal.exited;

    expect(done.stdout).toMatch(/Approve write_file notes\.txt\?/);
    expect(existsSync(path.join(root, 'notes.txt'))).toBe(false);
    expect(held.chatRequests().length).toBeGreaterThanOrEqual(4);
  });

  it('asks the model’s question on the terminal, its text neutralised, and the answer reaches research.md', async () => {
    const root = await tempFolder();
    llm().enqueue(
      call('ask_user', { question: 'Which format?\n\u001b[2J\u001b[31mred', choices: ['CSV', 'XLSX'], default: 'CSV' }),
      say('Findings.'),
      say(planText('Notes')),
      say('Notes done.'),
      say('Summary.'),
    );

    const terminal = onTerminal(['run', root, 'Write notes', '--base-url', llm().baseUrl, '--model', 'fake-model']);
    await terminal.answer('"-" for no answer > ', '2\r');
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/\? The model asks while researching \(expires in (10m 00s|9m \d\ds)\):\r\n {2}Which format\?\r\n {2}\u241b\[2J\u241b\[31mred\r\n {2}1\) CSV {2}\(default\)\r\n {2}2\) XLSX\r\n/);
    expect(done.stdout).not.toContain('\u001b[2J');
    expect(await readFile(path.join(conversationDir(root), 'rpi', 'research.md'), 'utf8')).toContain('Answer: The user answered: XLSX');
  });

  it('--review-plan shows the plan for approval; Ctrl-C at a question cancels cleanly and the run stays resumable', async () => {
    const root = await tempFolder();
    llm().enqueue(say('Empty.'), say(planText('Notes')), call('write_file', { path: 'notes.txt', content: 'original\n' }));

    const terminal = onTerminal(['run', root, 'Write notes', '--review-plan', '--base-url', llm().baseUrl, '--model', 'fake-model']);
    await terminal.answer('[r]eject  [v]iew again > ', 'a\r');
    await terminal.answer('[v]iew details > ', '\x03');
    const stopped = await terminal.exited;

    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toContain('── The plan is ready for review ──\r\n# Execution Plan');
    expect(stopped.stdout).toContain('- [ ] 1. Notes — do notes');
    expect(stopped.stdout).toContain(`Cancelled; the run is resumable: rpi-workbench resume ${root}`);
    expect(existsSync(path.join(root, 'notes.txt'))).toBe(false);
    expect(existsSync(path.join(root, '.workbench', 'lock'))).toBe(false);
  });

  it('prints each check’s result: a plan check that fails and then passes, the --check folder command per step and over the whole change', async () => {
    const root = await tempFolder();
    await writeTree(root, {
      'ledger-check.js': "const ok = require('fs').readFileSync('ledger.txt', 'utf8').trim() === 'balanced'; console.log(ok ? 'ok' : 'LEDGER MISMATCH'); process.exit(ok ? 0 : 3);\n",
      'count.js': "require('fs').appendFileSync('checks.log', 'ran\\n');\n",
    });
    llm().enqueue(
      say('Research.'),
      say('# Execution Plan\n\n## Items\n- [ ] 1. Ledger — write ledger.txt — Check: `node ledger-check.js`\n- [ ] 2. Notes — write notes.txt\n'),
      call('write_file', { path: 'ledger.txt', content: 'wrong\n' }),
      say('Ledger written.'),
      call('write_file', { path: 'ledger.txt', content: 'balanced\n' }),
      say('Ledger fixed.'),
      call('write_file', { path: 'notes.txt', content: 'notes\n' }),
      say('Notes written.'),
      say('Ledger balanced and notes written.'),
    );

    const terminal = onTerminal(['run', root, 'Balance the ledger', '--yes', '--check', 'node count.js', '--base-url', llm().baseUrl, '--model', 'fake-model']);
    const done = await terminal.exited;

    expect(done.code).toBe(0);
    // Lines as printed, and each redraw of the status line (carriage return, clear the line) apart.
    const lines = done.stdout.split('\r\u001b[2K').flatMap((part) => part.split(/\r?\n/));
    expect(lines.filter((line) => /^ {2}[✓✗–] (folder )?check /.test(line))).toEqual([
      '  ✗ check failed: exited 3 · node ledger-check.js (step 1)',
      '  ✓ check passed · node ledger-check.js (step 1, after fix round 1)',
      '  ✓ folder check passed · node count.js (step 2)',
      '  ✓ folder check passed · node count.js (whole change, after the last step)',
    ]);
    // Each check also shows as the command it ran, like every run_command.
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}✗ run_command node ledger-check\.js \([\d.]+ m?s\): exit code 3 after [\d.]+ s$/));
    expect(await readFile(path.join(root, 'checks.log'), 'utf8')).toBe('ran\nran\n');
    const [request] = await historyOf(cli, root);
    expect(request?.checks).toEqual({ passed: 3, failed: 0, denied: 0, none: 0 });
  }, 60_000);
});
