import { chmod, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { call, fakeModelOptions, planText, recordEvents, say } from '../../support/rpiScript.js';
import { followRun, startRun } from '../../support/startRun.js';
import { useTempFolders, writeTree } from '../../support/tempFolder.js';

const exists = (file: string) => stat(file).then(() => true, () => false);

describe('undo and regenerate through the facade', () => {
  const tempFolder = useTempFolders('rpi-undo-');
  const llm = useFakeLlm();
  const open = useOpenedWorkbenches();

  /** A project, then one full run that edits, creates, deletes and changes files by a command. */
  async function afterOneRun() {
    const root = await tempFolder();
    await writeTree(root, { 'keep.txt': 'keep\n', 'edit.txt': 'before\n', 'gone.txt': 'will be deleted\n', 'script.sh': 'echo hi\n' });
    await chmod(path.join(root, 'script.sh'), 0o644);
    llm().enqueue(
      say('research'),
      say(planText('Change')),
      call('edit_file', { path: 'edit.txt', old_text: 'before', new_text: 'after' }),
      call('write_file', { path: 'new/created.txt', content: 'new\n' }),
      call('run_command', { command: 'rm gone.txt && chmod +x script.sh && echo made > by-command.txt' }),
      say('done'),
      say('Changed four files.'),
    );
    const workbench = await open(root, fakeModelOptions(llm()));
    const events = recordEvents(workbench);
    const first = await startRun(workbench, 'Change things');
    expect((await first.finished).status).toBe('done');
    const [user, assistant] = (await workbench.request('workbench:snapshot')).conversation;
    return { root, workbench, events, user: user!, assistant: assistant! };
  }

  it('undo restores every file exactly, cuts the conversation and clears the run state', async () => {
    const { root, workbench, events, user } = await afterOneRun();
    expect(await exists(path.join(root, 'by-command.txt'))).toBe(true);

    const preview = await workbench.request('session:undo-preview', { messageId: user.id });
    expect(preview.map(({ path: file, change }) => `${change} ${file}`).sort()).toEqual([
      'recreated gone.txt',
      'removed by-command.txt',
      'removed new',
      'removed new/created.txt',
      'restored edit.txt',
      'restored script.sh',
    ]);

    const restored = (await workbench.request('session:undo', { messageId: user.id })).restoredFiles;

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
    expect(events.at(-1)).toMatchObject({ type: 'conversation-reset', messages: [] });
  });

  it('regenerate from the summary undoes the run and sends the same request again', async () => {
    const { root, workbench, assistant } = await afterOneRun();
    llm().enqueue(say('research again'), say(planText('Smaller')), call('write_file', { path: 'only.txt', content: 'only\n' }), say('done'), say('Wrote only.txt.'));

    const again = await followRun(workbench, workbench.request('session:regenerate', { messageId: assistant.id }));
    const result = await again.finished;

    expect(result).toMatchObject({ status: 'done', summary: 'Wrote only.txt.' });
    expect(await readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('before\n');
    expect(await exists(path.join(root, 'only.txt'))).toBe(true);
    const conversation = (await workbench.request('workbench:snapshot')).conversation;
    expect(conversation.map((message) => message.text)).toEqual(['Change things', 'Wrote only.txt.']);
    expect(conversation[0]!.id).toBe(again.messageId);
  });

  it('refuses undo and regenerate while a run is active, and an unknown message', async () => {
    const { workbench, user } = await afterOneRun();
    llm().enqueue(say('slow research', { delayMs: 150 }), say('# Execution Plan\n\n## Items\n'), say('Nothing.'));
    const running = await startRun(workbench, 'Another');
    await expect(workbench.request('session:undo', { messageId: user.id })).rejects.toThrow('A run is in progress in this folder');
    await expect(followRun(workbench, workbench.request('session:regenerate', { messageId: user.id }))).rejects.toThrow('A run is in progress in this folder');
    await running.finished;
    await expect(workbench.request('session:undo', { messageId: 'm-nope' })).rejects.toThrow('There is no message "m-nope"');
  });
});
