// @vitest-environment happy-dom
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FakeLlm } from '../../../support/fakeLlm/index.js';
import { useFakeLlm } from '../../../support/fakeLlm/useFakeLlm.js';
import { autoApprovals, call, planText, say } from '../../../support/rpiScript.js';
import { serveApp, useFakeChatLayout } from '../../../support/servedApp.js';
import { useTempFolders, writeTree } from '../../../support/tempFolder.js';

useFakeChatLayout();

const tempFolder = useTempFolders('rpi-undo-');
const llm = useFakeLlm();

/** The App served by a real browser host on `folder`, its settings pointing at `model`, changes approved. */
const servedApp = async (folder: string, model: FakeLlm) =>
  serveApp({ folder, configDir: await tempFolder(), settings: { baseUrl: model.baseUrl, model: 'fake-model', approvals: autoApprovals } });

const exists = (file: string) => stat(file).then(() => true, () => false);
const messages = () => screen.queryAllByTestId('message');
const slowly = { timeout: 8000 };

/** A project after one request whose run edited, created and deleted files. */
async function afterOneRun() {
  const root = await tempFolder();
  await writeTree(root, { 'keep.txt': 'keep\n', 'edit.txt': 'before\n', 'gone.txt': 'will be deleted\n' });
  llm().enqueue(
    say('Three files.'),
    say(planText('Change')),
    call('edit_file', { path: 'edit.txt', old_text: 'before', new_text: 'after' }),
    call('write_file', { path: 'created.txt', content: 'new\n' }),
    call('delete_file', { path: 'gone.txt' }),
    say('done'),
    say('Changed **three** files.'),
  );
  const store = await servedApp(root, llm());
  fireEvent.change(screen.getByTestId('composer'), { target: { value: 'Change things' } });
  fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
  await waitFor(() => expect(messages().map((row) => row.dataset.role)).toEqual(['user', 'assistant']), slowly);
  // The summary is added before the run has ended (its last recount, its record): wait for the end too.
  await waitFor(() => expect(screen.queryByTestId('stop-button')).toBeNull(), slowly);
  return { root, store };
}

const actionOf = (row: HTMLElement, testId: 'undo-button' | 'regenerate-button') => within(row).getByTestId(testId) as HTMLButtonElement;

describe('undo', () => {
  it('lists the files the real undo would restore, then restores them and cuts the chat', async () => {
    const { root } = await afterOneRun();
    const [request] = messages();
    fireEvent.click(actionOf(request!, 'undo-button'));

    const dialog = await screen.findByTestId('undo-confirm', undefined, slowly);
    expect(within(dialog).getByRole('heading').textContent).toBe('Undo this request?');
    expect(within(dialog).getByText('Change things')).toBeTruthy();
    await waitFor(() => expect(within(dialog).getAllByTestId('undo-file')).toHaveLength(3));
    const listed = within(dialog).getAllByTestId('undo-file').map((entry) => `${entry.dataset.change} ${entry.querySelector('code')?.textContent}`);
    expect(listed.sort()).toEqual(['recreated gone.txt', 'removed created.txt', 'restored edit.txt']);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(screen.queryByTestId('undo-confirm')).toBeNull());
    expect(messages()).toHaveLength(0);
    expect(await readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('before\n');
    expect(await readFile(path.join(root, 'gone.txt'), 'utf8')).toBe('will be deleted\n');
    expect(await exists(path.join(root, 'created.txt'))).toBe(false);
  });

  it('changes nothing when cancelled, and says so when no file would change', async () => {
    const root = await tempFolder();
    llm().enqueue(say('Nothing here.'), say('# Execution Plan\n\n## Items\n'), say('Nothing to change.'));
    await servedApp(root, llm());
    fireEvent.change(screen.getByTestId('composer'), { target: { value: 'Look only' } });
    fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
    await waitFor(() => expect(messages()).toHaveLength(2), slowly);

    fireEvent.click(actionOf(messages()[1]!, 'undo-button'));
    const dialog = await screen.findByTestId('undo-confirm', undefined, slowly);
    expect(await within(dialog).findByText('No files change.')).toBeTruthy();
    expect(within(dialog).queryAllByTestId('undo-file')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('undo-confirm')).toBeNull();
    expect(messages()).toHaveLength(2);
  });

  it('is offered on every message but not while a run is active', async () => {
    await afterOneRun();
    for (const row of messages()) {
      expect(within(row).getByTestId('message-actions')).toBeTruthy();
      expect(actionOf(row, 'undo-button').disabled).toBe(false);
      expect(actionOf(row, 'regenerate-button').disabled).toBe(false);
    }
    llm().enqueue(say('Thinking it over…', { delayMs: 1000 }));
    fireEvent.change(screen.getByTestId('composer'), { target: { value: 'Another' } });
    fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
    await screen.findByTestId('stop-button');
    expect(messages()).toHaveLength(3);
    for (const row of messages()) {
      expect(actionOf(row, 'undo-button').disabled).toBe(true);
      expect(actionOf(row, 'regenerate-button').disabled).toBe(true);
    }
    fireEvent.click(screen.getByTestId('stop-button'));
    await screen.findByTestId('resume-banner', {}, slowly);
  });
});

describe('regenerate', () => {
  it('from the summary restores the files and sends the request it answered again', async () => {
    const { root } = await afterOneRun();
    fireEvent.click(actionOf(messages()[1]!, 'regenerate-button'));
    const dialog = await screen.findByTestId('undo-confirm', undefined, slowly);
    expect(within(dialog).getByRole('heading').textContent).toBe('Regenerate this request?');
    expect(within(dialog).getByText('Change things')).toBeTruthy();
    await waitFor(() => expect(within(dialog).getAllByTestId('undo-file')).toHaveLength(3));

    llm().enqueue(say('Three files.'), say(planText('Smaller')), call('write_file', { path: 'only.txt', content: 'only\n' }), say('done'), say('Wrote only.txt.'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(messages().map((row) => row.textContent)).toEqual([expect.stringContaining('Change things'), expect.stringContaining('Wrote only.txt.')]), slowly);
    expect(await readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('before\n');
    expect(await exists(path.join(root, 'only.txt'))).toBe(true);
    expect(await exists(path.join(root, 'created.txt'))).toBe(false);
  });
});
