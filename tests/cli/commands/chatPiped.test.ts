import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliBin, useCli, watched } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { call, firstUserText, phaseOfRequest, planText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';
import { conversationDir } from '../../support/conversationDir.js';

/** A whole run that writes one file: research, plan, the write, the step's answer, the summary. */
const writesFile = (file: string, summary: string) => [
  say('Looked at the folder.'),
  say(planText(`Write ${file}`)),
  call('write_file', { path: file, content: `${file} content\n` }),
  say(`${file} written.`),
  say(summary),
];

describe('rpi-workbench chat without a terminal: one request or command per line from stdin', () => {
  const tempFolder = useTempFolders('rpi-cli-chat-');
  const llm = useFakeLlm();
  const cli = useCli();
  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model'];

  /** The chat with stdin as a pipe: lines are written to it as the test goes. */
  function chat(root: string, ...flags: string[]) {
    const child = spawn(process.execPath, [cliBin, 'chat', root, ...model(), ...flags], { env: cli.environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    cli.track(child);
    const session = watched(child);
    return { ...session, type: (...lines: string[]) => child.stdin.write(lines.map((line) => `${line}\n`).join('')), end: () => child.stdin.end() };
  }

  it('runs two requests in one session holding the folder, then /history and /undo of the latest; end of input ends it with exit 0', async () => {
    const root = await tempFolder();
    llm().enqueue(...writesFile('notes.txt', 'Wrote **notes.txt**.'), ...writesFile('todo.txt', 'Wrote todo.txt.'));

    const session = chat(root, '--yes');
    session.type('Write notes');
    await session.waitFor('stdout', 'Wrote **notes.txt**.\n');
    // Between requests the session keeps the folder's lock: no other engine can start on it.
    expect(existsSync(path.join(root, '.workbench', 'lock'))).toBe(true);
    const elsewhere = await cli.run(['history', root]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(/rpi-workbench: .*(in use|another|lock)/i);

    session.type('Write a todo', '/history', '/diff', '/undo');
    session.end();
    const done = await session.exited;

    expect(done.code).toBe(0);
    // Summaries are printed as they are (Markdown untouched) when stdout is not a terminal.
    expect(done.stdout).toContain('Wrote **notes.txt**.\nWrote todo.txt.\n');
    const table = done.stdout.slice(done.stdout.indexOf('ID  '));
    expect(table.split('\n').slice(0, 5)).toEqual([
      expect.stringMatching(/^ID +ROLE +TIME +MESSAGE$/),
      // As `history` prints it: a request with its plan's outcome.
      expect.stringMatching(/^\S+ +user +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +Write notes {2}\[Plan: 1\/1 done\]$/),
      expect.stringMatching(/^\S+ +assistant +.+ +Wrote \*\*notes\.txt\*\*\.$/),
      expect.stringMatching(/^\S+ +user +.+ +Write a todo {2}\[Plan: 1\/1 done\]$/),
      expect.stringMatching(/^\S+ +assistant +.+ +Wrote todo\.txt\.$/),
    ]);
    // /diff: the latest request's changes, as `diff` prints them (plain when piped).
    expect(done.stdout).toContain('diff --git a/todo.txt b/todo.txt\nnew file mode 100644\n--- /dev/null\n+++ b/todo.txt\n@@ -0,0 +1 @@\n+todo.txt content\n');
    expect(done.stdout).not.toContain('diff --git a/notes.txt');
    expect(done.stdout).toContain(
      `Restored 1 file:\n  todo.txt\nA checkpoint was taken first; to take this undo back: rpi-workbench take-back ${root} ${takeBackId(done.stdout)} todo.txt\nThe conversation now ends before that request; its research and plan were cleared.\n`,
    );
    expect(done.stderr).toMatch(/Undoing \S+ "Write a todo"…/);
    // The undo took back the second request only.
    expect(existsSync(path.join(root, 'todo.txt'))).toBe(false);
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('notes.txt content\n');
    const history = await cli.run(['history', root, '--json']);
    expect(history.stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { text: string }).text)).toEqual(['Write notes', 'Wrote **notes.txt**.']);
    // Each request ran whole before the next line was read: the second research came after the first summary.
    expect(llm().chatRequests().map(phaseOfRequest)).toEqual(['research', 'plan', 'implement', 'implement', 'summary', 'research', 'plan', 'implement', 'implement', 'summary']);
    expect(existsSync(path.join(root, '.workbench', 'lock'))).toBe(false);
  });

  it('/context attaches a file to the next request only; a bad path and an unknown command are one line each, and the exit code is 1', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'spec.md': 'The greeting must say hello.\n' });
    llm().enqueue(...writesFile('greeting.txt', 'Wrote the greeting.'), ...writesFile('other.txt', 'Wrote the other.'));

    const session = chat(root, '--yes');
    session.type('/context missing.md', '/frobnicate now', '/context spec.md', '/context', 'Write the greeting', '/context', 'Write the other');
    session.end();
    const done = await session.exited;

    expect(done.code).toBe(1);
    expect(done.stderr).toContain('rpi-workbench: /context missing.md: there is no such file or folder in');
    expect(done.stderr).toContain('There is no command /frobnicate: type /help for the list. Nothing was sent.\n');
    expect(done.stderr).toContain('Attached file spec.md: it goes with the next request (1 in all).\n');
    expect(done.stderr).toContain('Attached to the next request:\n  file spec.md\n');
    // After the request took it, nothing is attached any more.
    expect(done.stderr).toContain('Nothing is attached.');
    const conversation = (await readFile(path.join(conversationDir(root), 'conversation.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { role: string; text: string; context?: unknown });
    expect(conversation.filter((message) => message.role === 'user')).toEqual([
      expect.objectContaining({ text: 'Write the greeting', context: [{ kind: 'file', path: 'spec.md' }] }),
      expect.not.objectContaining({ context: expect.anything() }),
    ]);
    const research = llm().chatRequests().filter((request) => phaseOfRequest(request) === 'research');
    expect(firstUserText(research[0]!)).toContain('The greeting must say hello.');
    expect(firstUserText(research[1]!)).not.toContain('The greeting must say hello.');
  });

  it('/model switches the model for the next requests; /regenerate sends the latest again; /resume with nothing to resume fails that line only', async () => {
    const root = await tempFolder();
    llm().enqueue(...writesFile('a.txt', 'Wrote a.'), ...writesFile('a.txt', 'Wrote a again.'));

    const session = chat(root, '--yes');
    session.type('/help', '/model', '/model other-model', '/model', '/resume', 'Write a', '/regenerate');
    session.end();
    const done = await session.exited;

    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(/^ {2}\/undo \[id\] +undo a request/m);
    expect(done.stderr).toContain(`Model: fake-model at ${llm().baseUrl}.\n`);
    expect(done.stderr).toContain('does not list a model named "other-model"; trying it anyway.');
    expect(done.stderr).toContain('Model: other-model for every phase from now on in this session.\n');
    expect(done.stderr).toContain(`Model: other-model at ${llm().baseUrl}.\n`);
    expect(done.stderr).toContain('rpi-workbench: Nothing to resume');
    expect(done.stdout).toBe('Wrote a.\nWrote a again.\n');
    expect(done.stderr).toMatch(/Regenerating \S+ "Write a": its changes are undone, then it is sent again\./);
    expect(llm().chatRequests().map((request) => request.model)).toEqual(Array(10).fill('other-model'));
    const history = await cli.run(['history', root, '--json']);
    expect(history.stdout.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { text: string }).text)).toEqual(['Write a', 'Wrote a again.']);
  });

  it('/model with a phase name first puts that phase on another model; /model alone then names each phase\'s', async () => {
    const root = await tempFolder();
    llm().enqueue(...writesFile('a.txt', 'Wrote a.'));

    const session = chat(root, '--yes');
    session.type('/model plan plan-model', '/model', 'Write a');
    session.end();
    const done = await session.exited;

    expect(done.code).toBe(0);
    expect(done.stderr).toContain('Plan on plan-model: Context window:');
    expect(done.stderr).toContain('Plan: plan-model from now on in this session.\n');
    expect(done.stderr).toContain(`Model: fake-model at ${llm().baseUrl}.\nResearch: fake-model · Plan: plan-model · Implement: fake-model · Summary: fake-model\n`);
    expect(done.stderr).toContain('▸ Plan: planning approach… · plan-model');
    expect(llm().chatRequests().map((request) => [phaseOfRequest(request), request.model])).toEqual([
      ['research', 'fake-model'],
      ['plan', 'plan-model'],
      ['implement', 'fake-model'],
      ['implement', 'fake-model'],
      ['summary', 'fake-model'],
    ]);
  });

  it('takes no --json: that is a usage error before anything starts', async () => {
    const root = await tempFolder();
    const run = await cli.run(['chat', root, '--json', ...model()]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('chat is for a person and has no --json');
    expect(existsSync(path.join(root, '.workbench'))).toBe(false);
  });
});

/** The checkpoint an undo printed as the way to take it back. */
function takeBackId(stdout: string): string {
  return /take-back \S+ (\S+)/.exec(stdout)?.[1] ?? 'no take-back printed';
}
