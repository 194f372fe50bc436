import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyOf as historyOfFolder, parseJsonEvents, useCli } from '../../support/cliProcess.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { call, firstUserText, phaseOfRequest, planText, say } from '../../support/rpiScript.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';


/** Every file of the folder (outside .workbench/) with the hash of its content. */
async function fileHashes(root: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && !path.relative(root, entry.parentPath).split(path.sep).includes('.workbench'));
  const hashes = await Promise.all(
    files.map(async (entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return [path.relative(root, file), createHash('sha256').update(await readFile(file)).digest('hex')] as const;
    }),
  );
  return Object.fromEntries(hashes.sort(([a], [b]) => a.localeCompare(b)));
}

describe('history, undo and regenerate', () => {
  const tempFolder = useTempFolders('rpi-cli-history-');
  const llm = useFakeLlm();
  const cli = useCli();
  const model = () => ['--base-url', llm().baseUrl, '--model', 'fake-model'];

  const historyOf = (root: string) => historyOfFolder(cli, root);

  /** A folder after one run that edited README.md and created src/greeting.ts. */
  async function folderAfterARun() {
    const root = await tempFolder();
    await writeTree(root, { 'README.md': '# demo\n', 'src/index.ts': 'export const version = 1;\n' });
    const before = await fileHashes(root);
    llm().enqueue(
      say('A README and an index.'),
      say(planText('Greeting')),
      call('write_file', { path: 'src/greeting.ts', content: 'export const hi = "hi";\n' }),
      call('edit_file', { path: 'README.md', old_text: '# demo', new_text: '# demo\n\nSays hi.' }),
      say('Added the greeting.'),
      say('Added src/greeting.ts\nand documented it in README.md.'),
    );
    const run = await cli.run(['run', root, 'Add a greeting\nwith a second line', '--yes', ...model()]);
    expect(run.code).toBe(0);
    return { root, before };
  }

  it('history --json prints one object per message; the human form aligns id, role, local time and first line', async () => {
    const { root } = await folderAfterARun();

    const lines = await historyOf(root);
    expect(lines.map(({ role, text }) => ({ role, text }))).toEqual([
      { role: 'user', text: 'Add a greeting\nwith a second line' },
      { role: 'assistant', text: 'Added src/greeting.ts\nand documented it in README.md.' },
    ]);
    for (const line of lines) {
      expect(line.id).toMatch(/^m-/);
      expect(line.time).toBe(new Date(line.ts).toISOString());
    }

    const human = await cli.run(['history', root], { env: { TZ: 'UTC' } });
    expect(human.code).toBe(0);
    const [header, request, used, answer] = human.stdout.trimEnd().split('\n');
    // What the request's model calls used, on a line of its own under it, in the MESSAGE column.
    expect(used).toMatch(/^ +used: [\d,]+ tokens in · [\d,]+ out$/);
    expect(used!.indexOf('used:')).toBe(header!.indexOf('MESSAGE'));
    const rows = [header!, request!, answer!];
    expect(human.stdout.trimEnd().split('\n')).toHaveLength(4);
    expect(rows[0]).toMatch(/^ID +ROLE +TIME +MESSAGE$/);
    const utc = (ts: number) => new Date(ts).toISOString().slice(0, 19).replace('T', ' ');
    expect(rows[1]).toBe(`${lines[0]!.id}  user       ${utc(lines[0]!.ts)}  Add a greeting  [Plan: 1/1 done]`);
    expect(rows[2]).toBe(`${lines[1]!.id}  assistant  ${utc(lines[1]!.ts)}  Added src/greeting.ts`);
    for (const column of ['ROLE', 'TIME', 'MESSAGE']) {
      const at = rows[0]!.indexOf(column);
      expect(rows.slice(1).every((row) => row[at - 1] === ' ' && row[at] !== ' ')).toBe(true);
    }
  });

  it('history of a folder without messages says so, and prints nothing with --json', async () => {
    const root = await tempFolder();
    const human = await cli.run(['history', root]);
    expect(human).toMatchObject({ code: 0, stdout: '' });
    expect(human.stderr).toBe(`No messages yet in ${root}.\n`);
    expect(await historyOf(root)).toEqual([]);
  });

  it('history into a pipe its reader has closed (`history . | head -1`) exits quietly and releases the lock', async () => {
    const { root } = await folderAfterARun();
    for (const args of [['history', root], ['history', root, '--json']]) {
      const reading = cli.start(args);
      // Closed before the CLI writes a byte, as `head` has closed it once it has its line: every write gets EPIPE.
      reading.child.stdout?.destroy();

      const ended = await reading.exited;

      expect(ended).toMatchObject({ code: 0, stderr: '' });
      expect(existsSync(path.join(root, '.workbench', 'lock'))).toBe(false);
    }
  });

  it('undo restores the folder exactly, lists the restored files and cuts the conversation', async () => {
    const { root, before } = await folderAfterARun();
    expect(await fileHashes(root)).not.toEqual(before);
    const [request] = await historyOf(root);

    const undo = await cli.run(['undo', root, request!.id]);

    expect(undo.code).toBe(0);
    expect(undo.stdout.split('\n').slice(0, 3).sort()).toEqual(['  README.md', '  src/greeting.ts', 'Restored 2 files:'].sort());
    expect(undo.stdout).toContain('The conversation now ends before that request');
    expect(await fileHashes(root)).toEqual(before);
    expect(existsSync(path.join(root, 'src', 'greeting.ts'))).toBe(false);
    expect(await historyOf(root)).toEqual([]);
  });

  it('undo of an unknown message exits 2 with the engine\'s one line', async () => {
    const { root } = await folderAfterARun();
    const undo = await cli.run(['undo', root, 'm-nope']);
    expect(undo.code).toBe(2);
    expect(undo.stderr).toBe('rpi-workbench: There is no message "m-nope" in this folder\'s conversation.\n');
    expect(await historyOf(root)).toHaveLength(2);
  });

  it('regenerate undoes the request and sends it again as a new run', async () => {
    const { root, before } = await folderAfterARun();
    const [request, answer] = await historyOf(root);
    llm().enqueue(say('Still a README.'), say(planText('Wave')), call('write_file', { path: 'wave.txt', content: 'o/\n' }), say('Waved.'), say('Waved instead.'));

    const run = await cli.run(['regenerate', root, answer!.id, '--json', '--yes', ...model()]);

    expect(run.code).toBe(0);
    // The list's line follows the reset and the request (conversation-updated), whenever it is read again.
    const events = parseJsonEvents(run.stdout).filter((event) => event.type !== 'conversation-updated');
    expect(events.map((event) => event.type).slice(0, 3)).toEqual(['conversation-reset', 'message-added', 'run-started']);
    expect(events[0]).toMatchObject({ type: 'conversation-reset', messages: [] });
    expect(events[1]).toMatchObject({ message: { role: 'user', text: request!.text } });
    const research = llm().chatRequests().filter((chat) => phaseOfRequest(chat) === 'research');
    expect(research).toHaveLength(2);
    expect(firstUserText(research[1]!)).toContain('Add a greeting\nwith a second line');
    expect(await fileHashes(root)).toEqual({ ...before, 'wave.txt': expect.any(String) });
    const after = await historyOf(root);
    expect(after.map(({ role, text }) => ({ role, text }))).toEqual([
      { role: 'user', text: request!.text },
      { role: 'assistant', text: 'Waved instead.' },
    ]);
    expect(after[0]!.id).not.toBe(request!.id);
  });
});
