import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, planText, say } from '../../support/rpiScript.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { followRun, startRun } from '../../support/startRun.js';
import { folderAfterOneRun } from '../../support/folderAfterOneRun.js';

const exists = (file: string) => stat(file).then(() => true, () => false);

describe('undo and regenerate through the facade', () => {
  const tempFolder = useTempFolders('rpi-undo-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  /** A project, then one full run that edits, creates, deletes and changes files by a command. */
  const afterOneRun = async () =>
    folderAfterOneRun({
      root: await tempFolder(),
      llm: llm(),
      open,
      files: { 'keep.txt': 'keep\n', 'edit.txt': 'before\n', 'gone.txt': 'will be deleted\n', 'script.sh': 'echo hi\n' },
      modes: { 'script.sh': 0o644 },
      turns: [
        say('research'),
        say(planText('Change')),
        call('edit_file', { path: 'edit.txt', old_text: 'before', new_text: 'after' }),
        call('write_file', { path: 'new/created.txt', content: 'new\n' }),
        call('run_command', { command: 'rm gone.txt && chmod +x script.sh && echo made > by-command.txt' }),
        say('done'),
        say('Changed four files.'),
      ],
      request: 'Change things',
    });

  it('undo restores every file exactly, cuts the conversation and clears the run state', async () => {
    const { root, workbench, events, messageId } = await afterOneRun();
    expect(await exists(path.join(root, 'by-command.txt'))).toBe(true);

    const preview = await workbench.request('session:undo-preview', { messageId });
    expect(preview.map(({ path: file, change }) => `${change} ${file}`).sort()).toEqual([
      'recreated gone.txt',
      'removed by-command.txt',
      'removed new',
      'removed new/created.txt',
      'restored edit.txt',
      'restored script.sh',
    ]);

    const restored = (await workbench.request('session:undo', { messageId })).restoredFiles;

    expect(restored.sort()).toEqual(['by-command.txt', 'edit.txt', 'gone.txt', 'new/created.txt', 'script.sh']);
    expect(await readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('before\n');
    expect(await readFile(path.join(root, 'gone.txt'), 'utf8')).toBe('will be deleted\n');
    expect(await exists(path.join(root, 'new/created.txt'))).toBe(false);
    expect(await exists(path.join(root, 'new'))).toBe(false);
    expect(await exists(path.join(root, 'by-command.txt'))).toBe(false);
    expect((await stat(path.join(root, 'script.sh'))).mode & 0o777).toBe(0o644);
    const snapshot = await workbench.request('workbench:snapshot');
    expect(snapshot.conversation).toEqual([]);
    expect(snapshot.rpi).toMatchObject({ hasResearch: false, hasPlan: false });
    // The list's line follows the reset (conversation-updated), announced as soon as it is read again.
    expect(events.findLast((event) => event.type !== 'conversation-updated')).toMatchObject({ type: 'conversation-reset', messages: [] });
  });

  it('an undo cut short after its files were put back still removes the folder the request made, when undone again', async () => {
    const { root, workbench, messageId } = await folderAfterOneRun({
      root: await tempFolder(),
      llm: llm(),
      open,
      files: { 'keep.txt': 'keep\n' },
      turns: [say('research'), say(planText('Make')), call('write_file', { path: 'new/deeper/created.txt', content: 'new\n' }), say('done'), say('Made one file.')],
      request: 'Make a file',
    });
    // As an undo killed after removing the file, before removing its folders, leaves them: nothing but them left to undo.
    await rm(path.join(root, 'new/deeper/created.txt'));
    const preview = await workbench.request('session:undo-preview', { messageId });
    expect(preview.map(({ path: file, change }) => `${change} ${file}`)).toEqual(['removed new', 'removed new/deeper']);
    expect((await workbench.request('session:undo', { messageId })).restoredFiles).toEqual([]);
    expect(await exists(path.join(root, 'new'))).toBe(false);
    expect(await readFile(path.join(root, 'keep.txt'), 'utf8')).toBe('keep\n');
  });

  it('regenerate from the summary undoes the run and sends the same request again', async () => {
    const { root, workbench } = await afterOneRun();
    const [, answer] = (await workbench.request('workbench:snapshot')).conversation;
    llm().enqueue(say('research again'), say(planText('Smaller')), call('write_file', { path: 'only.txt', content: 'only\n' }), say('done'), say('Wrote only.txt.'));

    const again = await followRun(workbench, workbench.request('session:regenerate', { messageId: answer!.id }));
    const result = await again.finished;

    expect(result).toMatchObject({ status: 'done', summary: 'Wrote only.txt.' });
    expect(await readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('before\n');
    expect(await exists(path.join(root, 'only.txt'))).toBe(true);
    const conversation = (await workbench.request('workbench:snapshot')).conversation;
    expect(conversation.map((message) => message.text)).toEqual(['Change things', 'Wrote only.txt.']);
    expect(conversation[0]!.id).toBe(again.messageId);
  });

  it('refuses undo and regenerate while a run is active, and an unknown message', async () => {
    const { workbench, messageId } = await afterOneRun();
    llm().enqueue(say('slow research', { delayMs: 150 }), say('# Execution Plan\n\n## Items\n'), say('Nothing.'));
    const running = await startRun(workbench, 'Another');
    await expect(workbench.request('session:undo', { messageId })).rejects.toThrow('A run is in progress in this folder');
    await expect(followRun(workbench, workbench.request('session:regenerate', { messageId }))).rejects.toThrow('A run is in progress in this folder');
    await running.finished;
    await expect(workbench.request('session:undo', { messageId: 'm-nope' })).rejects.toThrow('There is no message "m-nope"');
  });
});
