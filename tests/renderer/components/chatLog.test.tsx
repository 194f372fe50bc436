// @vitest-environment happy-dom
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../../engine/contract/index.js';
import { createWorkbenchStore } from '../../../renderer/src/store/workbenchStore.js';
import { browserHostBridge } from '../../support/dispatchBridge.js';
import { useOpenedWorkbenches } from '../../support/openedWorkbenches.js';
import { renderStarted, useFakeChatLayout } from '../../support/servedApp.js';
import { useTempFolders } from '../../support/tempFolder.js';

useFakeChatLayout();
afterEach(() => {
  vi.restoreAllMocks();
});

const tempFolder = useTempFolders('rpi-chat-');
const open = useOpenedWorkbenches();

const message = (id: string, role: Message['role'], text: string): Message => ({ id, role, text, ts: 1_700_000_000_000 });

/** The app as the browser host serves it, over that host's real handlers, on a folder whose conversation holds `messages`. */
async function renderConversation(messages: Message[]) {
  const root = await tempFolder();
  await mkdir(path.join(root, '.workbench'));
  await writeFile(path.join(root, '.workbench', 'conversation.jsonl'), messages.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  await renderStarted(createWorkbenchStore(browserHostBridge(await open(root), await tempFolder())));
}

const summary = ['Added the parser.', '', '| File | Change |', '|---|---|', '| parse.ts | new |', '', '```ts', 'export const answer = 42;', '```'].join('\n');

describe('messages as Markdown', () => {
  const conversation = () =>
    renderConversation([message('u1', 'user', 'Add a **parser** like <b>this</b>, see [the docs](https://example.com/docs)'), message('a1', 'assistant', summary)]);

  it('renders GFM tables and emphasis, shows raw HTML as text, and opens links outside the app', async () => {
    await conversation();
    const [user, assistant] = screen.getAllByTestId('message');
    expect(user!.dataset).toMatchObject({ role: 'user', id: 'u1' });
    expect(within(user!).getByText('parser').tagName).toBe('STRONG');
    expect(user!.textContent).toContain('<b>this</b>');
    expect(user!.querySelector('b')).toBeNull();
    const link = within(user!).getByRole('link', { name: 'the docs' });
    expect(link.getAttribute('href')).toBe('https://example.com/docs');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noreferrer');

    expect(assistant!.dataset).toMatchObject({ role: 'assistant', id: 'a1' });
    const table = within(assistant!).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['File', 'Change']);
    expect(within(table).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['parse.ts', 'new']);
  });

  it('drops javascript: links', async () => {
    await renderConversation([message('u1', 'user', 'Click [here](javascript:alert(1))')]);
    expect(screen.getByText('here').getAttribute('href')).toBe('');
  });

  it('copies a code block with its Copy button', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    await conversation();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('export const answer = 42;\n');
  });

  it('falls back to the copy command where the clipboard API refuses', async () => {
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('not allowed'));
    const copied: string[] = [];
    document.execCommand = vi.fn(() => {
      copied.push(document.querySelector<HTMLTextAreaElement>('textarea.offscreen')?.value ?? '');
      return true;
    });
    await conversation();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(copied).toEqual(['export const answer = 42;\n']);
    expect(document.querySelector('textarea.offscreen')).toBeNull();
  });
});

describe('a long conversation', () => {
  it('draws only the rows in view out of 2,000 messages, starting at the end', async () => {
    await renderConversation(Array.from({ length: 2000 }, (_, index) => message(`m${index}`, index % 2 ? 'assistant' : 'user', `Message number ${index}`)));
    const chat = screen.getByRole('region', { name: 'Conversation' });
    // The chat scrolled itself to the end; a browser then reports that scroll, which happy-dom does not.
    act(() => void chat.dispatchEvent(new Event('scroll')));

    const drawn = () => screen.getAllByTestId('message').map((row) => row.dataset.id);
    expect(drawn().length).toBeLessThan(30);
    expect(drawn()).toContain('m1999');
    expect(drawn()).not.toContain('m0');

    act(() => {
      chat.scrollTop = 0;
      chat.dispatchEvent(new Event('scroll'));
    });
    expect(drawn().length).toBeLessThan(30);
    expect(drawn()).toContain('m0');
    expect(drawn()).not.toContain('m1999');
  });
});
