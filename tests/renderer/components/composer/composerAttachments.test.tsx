// @vitest-environment happy-dom
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserHandlers } from '../../../../cli/serve/browserHandlers.js';
import { fuzzyMatch, rankPaths } from '../../../../engine/contract/fuzzyPath.js';
import { createDispatch, type ParsedPayload } from '../../../../engine/contract/index.js';
import { openWorkbench, type Workbench } from '../../../../engine/index.js';
import { RecentFolders, SettingsStore, noKeyStorage } from '../../../../engine/settings/index.js';
import { addItem, isLongPaste, pathInFolder, removeItem } from '../../../../renderer/src/components/composer/attachments.js';
import { completeMention, mentionAt } from '../../../../renderer/src/components/composer/mention.js';
import { createWorkbenchStore } from '../../../../renderer/src/store/workbenchStore.js';
import { dispatchBridge } from '../../../support/dispatchBridge.js';
import { renderStarted } from '../../../support/servedApp.js';
import { writeTree } from '../../../support/tempFolder.js';

describe('@ mentions', () => {
  it('finds the mention the caret is in: after white space or at the start, never inside a word', () => {
    expect(mentionAt('@src', 4)).toEqual({ start: 0, end: 4, query: 'src' });
    expect(mentionAt('fix @src/ap please', 11)).toEqual({ start: 4, end: 11, query: 'src/ap' });
    expect(mentionAt('fix @', 5)).toEqual({ start: 4, end: 5, query: '' });
    expect(mentionAt('mail me@example.com', 19)).toBeNull();
    expect(mentionAt('fix @src please', 15)).toBeNull();
    expect(mentionAt('line one\n@doc', 13)).toEqual({ start: 9, end: 13, query: 'doc' });
    expect(completeMention('fix @src/ap please', { start: 4, end: 11, query: 'src/ap' }, 'src/app.ts')).toEqual({ text: 'fix @src/app.ts please', caret: 16 });
    expect(completeMention('see @do', { start: 4, end: 7, query: 'do' }, 'docs/')).toEqual({ text: 'see @docs/ ', caret: 11 });
  });
});

describe('fuzzy path ranking', () => {
  const paths = ['src/components', 'src/components/Composer.tsx', 'docs/composing-notes.md', 'src/store/workbenchStore.ts', 'README.md', 'tests/compat/xyz.test.ts'].map((path) => ({ path }));

  it('needs every typed character in order, whatever the case', () => {
    expect(fuzzyMatch('cmpsr', 'src/components/Composer.tsx')).not.toBeNull();
    expect(fuzzyMatch('xsrc', 'src/components/Composer.tsx')).toBeNull();
    expect(fuzzyMatch('README', 'readme.md')?.positions).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('ranks a name that starts with the query over scattered letters, and runs over gaps', () => {
    expect(rankPaths('cmpsr', paths, 3).map((entry) => entry.path)).toEqual(['src/components/Composer.tsx']);
    const compos = rankPaths('compos', paths, 3).map((entry) => entry.path);
    expect(compos.slice(0, 2).sort()).toEqual(['docs/composing-notes.md', 'src/components/Composer.tsx']);
    expect(compos[2]).toBe('src/components');
    expect(rankPaths('wbs', paths, 1).map((entry) => entry.path)).toEqual(['src/store/workbenchStore.ts']);
    expect(rankPaths('readme', paths, 5).map((entry) => entry.path)).toEqual(['README.md']);
    // The letters shown in bold are the ones of the best placement: the file name's, not the folder's.
    expect(fuzzyMatch('comp', 'src/components/Composer.tsx')?.positions).toEqual([15, 16, 17, 18]);
  });
});

describe('attached items', () => {
  it('adds each item once, up to the limit, and removes by position', () => {
    const one = addItem([], { kind: 'file', path: 'a.ts' });
    expect(one).toEqual({ items: [{ kind: 'file', path: 'a.ts' }], refused: null });
    expect(addItem(one.items, { kind: 'file', path: 'a.ts' }).refused).toBe('It is attached already.');
    const full = Array.from({ length: 20 }, (_, index) => ({ kind: 'file' as const, path: `f${index}` }));
    expect(addItem(full, { kind: 'note', text: 'x' }).refused).toBe('At most 20 items can be attached to one request.');
    expect(addItem([], { kind: 'note', text: 'x'.repeat(50_001) }).refused).toBe('A note can be at most 50,000 characters.');
    expect(removeItem([{ kind: 'file', path: 'a' }, { kind: 'folder', path: 'b' }], 0)).toEqual([{ kind: 'folder', path: 'b' }]);
  });

  it('knows a dropped file inside the folder from one outside it, and a long paste from a short one', () => {
    expect(pathInFolder('/home/me/project', '/home/me/project/src/app.ts')).toBe('src/app.ts');
    expect(pathInFolder('/home/me/project', '/home/me/project')).toBe('.');
    expect(pathInFolder('/home/me/project', '/home/me/project-old/app.ts')).toBeNull();
    expect(pathInFolder('/home/me/project', '/etc/passwd')).toBeNull();
    expect(pathInFolder('C:\\Users\\me\\project', 'c:\\users\\me\\project\\src\\app.ts')).toBe('src/app.ts');
    expect(isLongPaste('short')).toBe(false);
    expect(isLongPaste('x'.repeat(1000))).toBe(true);
    expect(isLongPaste('a\n'.repeat(20))).toBe(true);
  });
});

describe('the composer with a folder open', () => {
  let temp: string;
  let workbench: Workbench;
  let sent: ParsedPayload<'session:send'>[];
  let searched: string[];
  let show: (pathForFile?: (file: File) => string | null) => Promise<void>;
  let project: string;

  beforeEach(async () => {
    temp = await mkdtemp(path.join(os.tmpdir(), 'rpi-composer-'));
    project = path.join(temp, 'project');
    await writeTree(project, { 'src/components/Composer.tsx': '', 'src/app.ts': '', 'docs/guide.md': '', 'build/out.js': '', '.gitignore': 'build/\n' });
    workbench = await openWorkbench(project);
    sent = [];
    searched = [];
    const configDir = path.join(temp, 'config');
    const settings = new SettingsStore({ configDir, cipher: noKeyStorage('no keychain here'), env: {} });
    await settings.update({ model: 'fake-model' });
    const handlers = browserHandlers(workbench, settings, new RecentFolders(configDir));
    const dispatch = createDispatch({
      ...handlers,
      'context:paths': (payload) => {
        searched.push(payload.query);
        return handlers['context:paths'](payload);
      },
      'session:send': async (payload) => {
        sent.push(payload);
        return { messageId: 'm-1', runId: 'run-1', conversationId: 'c-0000000a' };
      },
    });
    show = async (pathForFile) => {
      await renderStarted(createWorkbenchStore({ ...dispatchBridge(dispatch, (listener) => workbench.subscribe(listener)), ...(pathForFile ? { pathForFile } : {}) }));
    };
  });

  afterEach(async () => {
    cleanup();
    await workbench.close();
    await rm(temp, { recursive: true, force: true });
  });

  const box = () => screen.getByLabelText('Request') as HTMLTextAreaElement;
  const type = (value: string) => fireEvent.change(box(), { target: { value, selectionStart: value.length, selectionEnd: value.length } });

  it('@ lists matching paths (not what .gitignore hides); the keyboard picks one as a chip, removable, and Send carries it', async () => {
    await show();
    type('Tidy @comp');
    const list = await screen.findByRole('listbox', { name: 'Files and folders to attach' });
    await waitFor(() => expect(within(list).getAllByRole('option').length).toBeGreaterThan(0));
    const options = within(list).getAllByRole('option').map((option) => option.textContent);
    expect(options[0]).toBe('foldersrc/components/');
    expect(options).toContain('filesrc/components/Composer.tsx');
    expect(box().getAttribute('aria-activedescendant')).toBe('composer-paths-option-0');

    fireEvent.keyDown(box(), { key: 'ArrowDown' });
    expect(box().getAttribute('aria-activedescendant')).toBe('composer-paths-option-1');
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box().value).toBe('Tidy @src/components/Composer.tsx ');
    const chips = screen.getByRole('list', { name: 'Attached to this request' });
    expect(within(chips).getByText('src/components/Composer.tsx')).toBeTruthy();

    type('Tidy @bui');
    await waitFor(() => expect(screen.getByTestId('path-completion').textContent).toContain('No file or folder matches “bui”.'));
    fireEvent.keyDown(box(), { key: 'Escape' });
    expect(screen.queryByTestId('path-completion')).toBeNull();

    type('Tidy @docs');
    await waitFor(() => expect(screen.getAllByRole('option')[0]?.textContent).toBe('folderdocs/'));
    fireEvent.keyDown(box(), { key: 'Tab' });
    expect(within(chips).getAllByTestId('context-chip').map((chip) => chip.dataset.kind)).toEqual(['file', 'folder']);

    fireEvent.click(screen.getByRole('button', { name: 'Remove src/components/Composer.tsx' }));
    expect(within(chips).getAllByTestId('context-chip')).toHaveLength(1);

    type('Tidy the docs');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(sent).toEqual([{ prompt: 'Tidy the docs', context: [{ kind: 'folder', path: 'docs' }] }]));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Attached to this request' })).toBeNull());
  });

  it('keystrokes in quick succession ask the engine once, for the last query', async () => {
    await show();
    for (const text of ['@a', '@ap', '@app', '@app.']) type(text);
    await waitFor(() => expect(screen.getAllByRole('option')[0]?.textContent).toBe('filesrc/app.ts'));
    expect(searched).toEqual(['app.']);
  });

  it('Backspace in an empty box removes the last chip; a long paste can be attached as a note', async () => {
    await show();
    type('@app');
    await waitFor(() => expect(screen.getAllByRole('option')[0]?.textContent).toBe('filesrc/app.ts'));
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(screen.getAllByTestId('context-chip')).toHaveLength(1);
    type('');
    fireEvent.keyDown(box(), { key: 'Backspace' });
    expect(screen.queryAllByTestId('context-chip')).toHaveLength(0);

    const log = 'Error: boom\n'.repeat(100);
    type('See ');
    fireEvent.paste(box(), { clipboardData: { getData: () => log } });
    type(`See ${log}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Attach as note' }));
    expect(box().value).toBe('See ');
    const chip = screen.getByTestId('context-chip');
    expect(chip.dataset.kind).toBe('note');
    expect(chip.textContent).toContain('Error: boom Error: boom');
  });

  it('a drag over the window says what a drop would do where the pointer is: attach over the request box, open a folder elsewhere', async () => {
    await show();
    const dataTransfer = { types: ['Files'], files: [] };
    fireEvent.dragEnter(window, { dataTransfer });
    fireEvent.dragOver(screen.getByTestId('composer-form'), { dataTransfer });
    expect(document.querySelector('.drop-overlay')?.textContent).toBe('Attaching by dropping needs the desktop app: type @ instead');
    fireEvent.dragOver(document.body, { dataTransfer });
    expect(document.querySelector('.drop-overlay')?.textContent).toBe('Dropping a folder needs the desktop app');
  });

  it('files dropped on the box (desktop app) are attached when inside the folder, refused when outside; the browser says to use @', async () => {
    const real: Record<string, string> = { 'app.ts': path.join(project, 'src', 'app.ts'), docs: path.join(project, 'docs'), 'passwd': '/etc/passwd' };
    await show((file) => real[file.name] ?? null);
    const drop = (...names: string[]) => {
      const files = names.map((name) => new File([name === 'docs' ? '' : 'x'], name));
      fireEvent.drop(screen.getByTestId('composer-form'), { dataTransfer: { types: ['Files'], files } });
    };
    drop('app.ts', 'docs');
    await waitFor(() => expect(screen.getAllByTestId('context-chip').map((chip) => [chip.dataset.kind, chip.textContent])).toEqual([
      ['file', 'Filesrc/app.ts×'],
      ['folder', 'Folderdocs/×'],
    ]));
    drop('passwd');
    expect((await screen.findByTestId('composer-notice')).textContent).toBe('Not attached: passwd is outside this folder; only files and folders inside it can be attached.');
    expect(screen.getAllByTestId('context-chip')).toHaveLength(2);
    drop('unknown.bin');
    expect((await screen.findByTestId('composer-notice')).textContent).toBe('Dropping files works in the desktop app. Here, type @ and a name to attach a file or folder of this project.');
  });
});
