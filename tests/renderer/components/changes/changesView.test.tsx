// @vitest-environment happy-dom
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useFakeLlm } from '../../../support/fakeLlm/useFakeLlm.js';
import { autoApprovals, call, planText, say } from '../../../support/rpiScript.js';
import { serveApp, useFakeChatLayout } from '../../../support/servedApp.js';
import { useTempFolders, writeTree } from '../../../support/tempFolder.js';

useFakeChatLayout();

/** happy-dom lays nothing out: the Changes view's list gets a 600px view, as a browser would give it. */
let restoreList: () => void = () => undefined;
beforeEach(() => {
  const previous = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('changes-list') ? 600 : ((previous?.get?.call(this) as number | undefined) ?? 0);
    },
  });
  restoreList = () => (previous ? Object.defineProperty(HTMLElement.prototype, 'clientHeight', previous) : undefined);
});
afterEach(() => restoreList());

const tempFolder = useTempFolders('rpi-changes-view-');
const llm = useFakeLlm();
const slowly = { timeout: 8000 };
const exists = (file: string) => stat(file).then(() => true, () => false);

async function afterOneRun() {
  const root = await tempFolder();
  await writeTree(root, { 'edit.txt': 'before\nsame\n', 'gone.txt': 'will be deleted\n' });
  llm().enqueue(
    say('Two files.'),
    say(planText('Change')),
    call('edit_file', { path: 'edit.txt', old_text: 'before', new_text: 'after' }),
    call('write_file', { path: 'created.txt', content: 'new\nlines\n' }),
    call('delete_file', { path: 'gone.txt' }),
    say('done'),
    say('Changed three files.'),
  );
  await serveApp({ folder: root, configDir: await tempFolder(), settings: { baseUrl: llm().baseUrl, model: 'fake-model', approvals: autoApprovals } });
  fireEvent.change(screen.getByTestId('composer'), { target: { value: 'Change things' } });
  fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
  await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(2), slowly);
  // The summary is added before the run has ended (its last recount, its record): wait for the end too.
  await waitFor(() => expect(screen.queryByTestId('stop-button')).toBeNull(), slowly);
  return root;
}

describe('the Changes view of a request', () => {
  it('says how many files and lines the request changed, lists them with their diffs, and reverts one file (undoably)', async () => {
    const root = await afterOneRun();
    const line = await screen.findByTestId('changes-line');
    await waitFor(() => expect(line.querySelector('.changes-open')?.textContent).toBe('3 files changed (+3 −2)'), slowly);
    fireEvent.click(line.querySelector('.changes-open')!);

    const view = await screen.findByTestId('changes-view', {}, slowly);
    await waitFor(() => expect(within(view).getAllByTestId('changes-file').map((row) => `${row.dataset.status} ${row.dataset.path}`)).toEqual(['added created.txt', 'modified edit.txt', 'deleted gone.txt']), slowly);
    const edit = within(view).getAllByTestId('changes-file')[1]!;
    fireEvent.click(within(edit).getByRole('button', { expanded: false }));
    await waitFor(() => expect(view.querySelectorAll('[data-sign]').length).toBe(3), slowly);
    expect([...view.querySelectorAll('[data-sign]')].map((row) => `${row.getAttribute('data-sign')}${row.querySelector('.diff-text')?.textContent}`)).toEqual(['-before', '+after', ' same']);

    fireEvent.click(within(edit).getByRole('button', { name: 'Revert this file' }));
    const confirm = await screen.findByTestId('revert-confirm');
    await waitFor(() => expect(within(confirm).getByTestId('diff-view')).toBeTruthy(), slowly);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Revert this file' }));
    await waitFor(() => expect(screen.queryByTestId('revert-confirm')).toBeNull(), slowly);
    expect(await readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('before\nsame\n');
    await waitFor(() => expect(within(view).getAllByTestId('changes-file').map((row) => row.dataset.path)).toEqual(['created.txt', 'gone.txt']), slowly);
    await waitFor(() => expect(line.querySelector('.changes-open')?.textContent).toBe('2 files changed (+2 −1)'), slowly);

    fireEvent.click(within(screen.getByTestId('changes-notice')).getByRole('button', { name: 'Undo revert' }));
    await waitFor(async () => expect(await readFile(path.join(root, 'edit.txt'), 'utf8')).toBe('after\nsame\n'), slowly);
    await waitFor(() => expect(within(view).getAllByTestId('changes-file')).toHaveLength(3), slowly);
    expect(await exists(path.join(root, 'gone.txt'))).toBe(false);
  });

  it('the undo dialog shows the diff each file would have taken back', async () => {
    await afterOneRun();
    const [request] = screen.getAllByTestId('message');
    fireEvent.click(within(request!).getByTestId('undo-button'));
    const dialog = await screen.findByTestId('undo-confirm');
    await waitFor(() => expect(within(dialog).getAllByTestId('diff-view')).toHaveLength(3), slowly);
    const restored = within(dialog).getAllByTestId('undo-file').find((entry) => entry.dataset.change === 'restored')!;
    expect([...restored.querySelectorAll('[data-sign]')].map((row) => row.getAttribute('data-sign'))).toEqual(['-', '+', ' ']);
  });
});
