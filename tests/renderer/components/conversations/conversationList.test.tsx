// @vitest-environment happy-dom
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useFakeLlm } from '../../../support/fakeLlm/useFakeLlm.js';
import { autoApprovals, call, planText, say } from '../../../support/rpiScript.js';
import { serveApp, useFakeChatLayout } from '../../../support/servedApp.js';
import { useTempFolders, writeTree } from '../../../support/tempFolder.js';

useFakeChatLayout();

const tempFolder = useTempFolders('rpi-convlist-');
const llm = useFakeLlm();
const slowly = { timeout: 8000 };

const listed = () => screen.queryAllByTestId('conversation');
const titles = () => listed().map((row) => within(row).getByTestId('conversation-title').textContent);
const shownTitle = () => screen.getAllByTestId('conversation').find((row) => within(row).queryByRole('button', { current: true }))?.textContent ?? '';
const messages = () => screen.queryAllByTestId('message');
const switchOf = (row: HTMLElement) => within(row).getByTestId('conversation-title').closest('button')!;
/** Each test runs whole requests through a real host and engine: on a loaded machine that takes a while. */
const runsRequests = 60_000;

/** The App served by a real browser host on a fresh folder, its model the fake server; approvals as given. */
async function servedFolder(approvals = autoApprovals) {
  const root = await tempFolder();
  await writeTree(root, { 'README.md': '# Ledger\n' });
  const store = await serveApp({ folder: root, configDir: await tempFolder(), settings: { baseUrl: llm().baseUrl, model: 'fake-model', approvals } });
  return { root, store };
}

async function send(text: string) {
  fireEvent.change(screen.getByTestId('composer'), { target: { value: text } });
  fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
}

/** One whole request answered by the fake model, waited for until its summary is in the chat. */
async function answeredRequest(text: string, summary: string) {
  llm().enqueue(say('Nothing to research.'), say(planText()), say(summary));
  const before = messages().length;
  await send(text);
  await waitFor(() => expect(messages()).toHaveLength(before + 2), slowly);
}

describe('the conversation list', () => {
  it('starts a conversation with the button, lists both with their first request as title, and switches between them', async () => {
    await servedFolder();
    expect(screen.getByTestId('conversation-list').textContent).toContain('No conversations yet');
    await answeredRequest('Parse the statement', 'Parsed it.');
    await waitFor(() => expect(titles()).toEqual(['Parse the statement']));
    expect(within(listed()[0]!).getByRole('button', { current: true })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
    await waitFor(() => expect(titles()).toEqual(['New conversation', 'Parse the statement']));
    await waitFor(() => expect(messages()).toHaveLength(0));
    expect(shownTitle()).toContain('New conversation');

    await answeredRequest('Write the report', 'Wrote it.');
    await waitFor(() => expect(titles()).toEqual(['Write the report', 'Parse the statement']));
    expect(messages().map((row) => row.textContent)).toEqual([expect.stringContaining('Write the report'), expect.stringContaining('Wrote it.')]);

    fireEvent.click(switchOf(listed()[1]!));
    await waitFor(() => expect(messages().map((row) => row.textContent)).toEqual([expect.stringContaining('Parse the statement'), expect.stringContaining('Parsed it.')]));
    expect(shownTitle()).toContain('Parse the statement');
  }, runsRequests);

  it('renames a conversation in place (Enter saves, an empty title is refused and said) and answers Alt+N in the browser', async () => {
    await servedFolder();
    await answeredRequest('Parse the statement', 'Parsed it.');
    await waitFor(() => expect(listed()).toHaveLength(1));

    fireEvent.click(screen.getByRole('button', { name: 'Rename “Parse the statement”' }));
    const input = screen.getByRole('textbox', { name: 'Conversation title' });
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.submit(input.closest('form')!);
    expect((await screen.findByRole('alert')).textContent).toBe('title must not be empty: type a title for the conversation');
    fireEvent.change(input, { target: { value: 'Bank statement\u001b[31m parser' } });
    fireEvent.submit(input.closest('form')!);
    // The escape character is made a space; what followed it is shown as the text it is.
    await waitFor(() => expect(titles()).toEqual(['Bank statement [31m parser']));
    // The keyboard goes on from the row renamed.
    expect(document.activeElement).toBe(switchOf(listed()[0]!));

    fireEvent.keyDown(window, { key: 'n', code: 'KeyN', altKey: true });
    await waitFor(() => expect(titles()).toEqual(['New conversation', 'Bank statement [31m parser']));
    await waitFor(() => expect(shownTitle()).toContain('New conversation'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('composer')));
  }, runsRequests);

  it('deletes a conversation after asking, saying its history and kept plans go; the most recent left is shown', async () => {
    const { root } = await servedFolder();
    await answeredRequest('Parse the statement', 'Parsed it.');
    fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
    await waitFor(() => expect(messages()).toHaveLength(0));
    await answeredRequest('Write the report', 'Wrote it.');
    const conversationsDir = path.join(root, '.workbench', 'conversations');
    expect(await readdir(conversationsDir)).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Delete “Write the report”' }));
    const dialog = await screen.findByTestId('delete-conversation');
    expect(dialog.textContent).toContain('Its history (1 request) and the research and plans kept for it are removed for good.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('delete-conversation')).toBeNull());
    expect(await readdir(conversationsDir)).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Delete “Write the report”' }));
    fireEvent.click(within(await screen.findByTestId('delete-conversation')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(titles()).toEqual(['Parse the statement']));
    await waitFor(() => expect(messages().map((row) => row.textContent)).toEqual([expect.stringContaining('Parse the statement'), expect.stringContaining('Parsed it.')]));
    expect(await readdir(conversationsDir)).toHaveLength(1);
  }, runsRequests);

  it('shows another conversation’s approval wherever the user is, refuses a second run with a switch to the running one', async () => {
    await servedFolder({ ...autoApprovals, files: 'ask' });
    llm().enqueue(say('A README.'), say(planText('Write')), call('write_file', { path: 'out.txt', content: 'x\n' }), say('Wrote out.txt.'), say('Wrote **out.txt**.'));
    await send('Write out.txt');
    await screen.findByTestId('approval-card', {}, slowly);
    await waitFor(() => expect(screen.getByTestId('conversation-running')).toBeTruthy());

    fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
    await waitFor(() => expect(messages()).toHaveLength(0));
    const waiting = await screen.findByTestId('waiting-elsewhere');
    expect(within(waiting).getByTestId('waiting-elsewhere-title').textContent).toBe('Write out.txt');
    expect(within(waiting).getByTestId('approval-card')).toBeTruthy();
    expect(within(listed()[1]!).getByTestId('conversation-running')).toBeTruthy();

    await send('Something else');
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('“Write out.txt” is running in this folder, and a folder runs one request at a time, so nothing was sent');
    fireEvent.click(within(banner).getByRole('button', { name: 'Switch to “Write out.txt”' }));
    await waitFor(() => expect(messages().map((row) => row.textContent)).toEqual([expect.stringContaining('Write out.txt')]));
    expect(screen.queryByTestId('waiting-elsewhere')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.click(within(screen.getByTestId('approval-card')).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(messages()).toHaveLength(2), slowly);
    await waitFor(() => expect(screen.queryByTestId('conversation-running')).toBeNull());
  }, runsRequests);
});
