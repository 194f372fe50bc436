import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, say } from '../../support/rpiScript.js';
import { startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const journalLine = (op: 'begin' | 'end', file: string) => `${JSON.stringify({ op, path: file })}\n`;

describe('temp files a crashed write leaves in the folder', () => {
  const tempFolder = useTempFolders('rpi-pending-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  it('are removed when the folder is opened again, and only those: nothing outside, nothing not a temp file, nothing ended', async () => {
    const outside = await tempFolder();
    const root = await tempFolder();
    const leftover = 'items/.item-10.txt.26591.709b1965.tmp';
    const restoreLeftover = '.rpi-restore.26591.0a1b2c3d.tmp';
    const finished = 'items/.item-11.txt.26591.00112233.tmp';
    await writeTree(root, { [leftover]: 'half a fi', [restoreLeftover]: 'half', [finished]: 'someone else made this', 'important.txt': 'keep me\n', 'items/item-9.txt': 'nine\n' });
    await writeFile(path.join(outside, '.x.1.aaaaaaaa.tmp'), 'outside');
    await mkdir(path.join(root, '.workbench'));
    const escape = path.relative(root, path.join(outside, '.x.1.aaaaaaaa.tmp'));
    await writeFile(
      path.join(root, '.workbench', 'pending-writes.jsonl'),
      [journalLine('begin', leftover), journalLine('begin', restoreLeftover), journalLine('begin', finished), journalLine('end', finished), journalLine('begin', 'important.txt'), journalLine('begin', escape)].join(''),
    );

    const workbench = await open(root);

    expect(existsSync(path.join(root, leftover))).toBe(false);
    expect(existsSync(path.join(root, restoreLeftover))).toBe(false);
    expect(existsSync(path.join(root, finished))).toBe(true);
    expect(await readFile(path.join(root, 'important.txt'), 'utf8')).toBe('keep me\n');
    expect(existsSync(path.join(outside, '.x.1.aaaaaaaa.tmp'))).toBe(true);
    expect((await workbench.request('workbench:snapshot')).warnings).toEqual([`Removed 2 temp files that a write cut short by a crash had left in the folder (${restoreLeftover}, ${leftover}).`]);
    expect(await readFile(path.join(root, '.workbench', 'pending-writes.jsonl'), 'utf8')).toBe('');
  });

  it('are journaled while they exist: each write begins and ends its temp file, so the journal holds none pending', async () => {
    const root = await tempFolder();
    await writeTree(root, { 'a.txt': 'alpha\n' });
    const workbench = await open(root, fakeModelOptions(llm()));
    llm().enqueue(say('research'), say(planText('Write')), call('write_file', { path: 'notes/b.txt', content: 'beta\n' }), say('done'), say('summary'));
    expect((await (await startRun(workbench, 'Write b')).finished).status).toBe('done');
    const records = (await readFile(path.join(root, '.workbench', 'pending-writes.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { op: string; path: string });
    expect(records.map((record) => record.op)).toEqual(['begin', 'end']);
    expect(records[0]?.path).toMatch(/^notes\/\.b\.txt\.\d+\.[0-9a-f]{8}\.tmp$/);
    expect(records[1]?.path).toBe(records[0]?.path);
  });
});
