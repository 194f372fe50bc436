// @vitest-environment happy-dom
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { connectSocketBridge } from '../../../../renderer/src/bridge/socketBridge.js';
import { useFakeLlm } from '../../../support/fakeLlm/useFakeLlm.js';
import { betaRequest, interleavedConversations, type ConversationDriver } from '../../../support/interleavedConversations.js';
import { autoApprovals, call, planText, say } from '../../../support/rpiScript.js';
import { serveApp, useFakeChatLayout } from '../../../support/servedApp.js';
import { useTempFolders } from '../../../support/tempFolder.js';

useFakeChatLayout();

const tempFolder = useTempFolders('rpi-undo-conflict-');
const llm = useFakeLlm();
const slowly = { timeout: 8000 };
const messages = () => screen.queryAllByTestId('message');

describe('the undo dialog in one of several conversations', () => {
  it('refuses when another conversation changed a file since it listed them, says why, lists the file with a keep/take choice, and then undoes as chosen', async () => {
    const root = await tempFolder();
    await serveApp({ folder: root, configDir: await tempFolder(), settings: { baseUrl: llm().baseUrl, model: 'fake-model', approvals: autoApprovals } });
    // The requests come from another page of the same host; this one shows the conversation they start in.
    const other = bridgeDriver(root);
    const { beta } = await interleavedConversations(other, llm());
    await waitFor(() => expect(messages()).toHaveLength(4), slowly);
    // Beta's summary is shown before its run has ended here; Undo is unavailable until this page hears the end.
    const undo = () => within(messages()[2]!).getByTestId('undo-button') as HTMLButtonElement;
    await waitFor(() => expect(undo().disabled).toBe(false), slowly);

    fireEvent.click(undo());
    const dialog = await screen.findByTestId('undo-confirm', {}, slowly);
    await waitFor(() => expect(within(dialog).getAllByTestId('undo-file').map((file) => file.querySelector('code')?.textContent)).toEqual(['mine.txt']));
    expect(within(dialog).queryByTestId('undo-conflicts')).toBeNull();

    // Meanwhile, from the other page, a request of Beta rewrites mine.txt.
    llm().enqueue(say('Beta again'), say(planText('Beta mine')), call('write_file', { path: 'mine.txt', content: 'beta mine\n' }), say('done'), say('Beta mine done.'));
    await other.send('Beta: touch mine', beta.conversationId);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/^Another conversation changed mine\.txt \(changed by "Beta: touch mine".*nothing was undone/);
    const conflict = await within(dialog).findByTestId('undo-conflict', {}, slowly);
    expect(conflict.textContent).toContain(`mine.txt changed since by Beta: touch mine in ${betaRequest}`);
    expect(conflict.dataset.choice).toBe('keep');
    expect(await readFile(path.join(root, 'mine.txt'), 'utf8')).toBe('beta mine\n');

    fireEvent.click(within(conflict).getByRole('radio', { name: 'Take this conversation’s' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(screen.queryByTestId('undo-confirm')).toBeNull(), slowly);
    expect(messages()).toHaveLength(2);
    expect(await readFile(path.join(root, 'mine.txt'), 'utf8')).toBe('alpha mine\n');
    expect(screen.getByTestId('undone-notice').textContent).toContain('Undone: 1 file put back.');
  });
});

/** Sends requests through a second page's socket bridge to the host serving `folder`, each awaited to its end. */
function bridgeDriver(folder: string): ConversationDriver {
  const bridge = connectSocketBridge();
  const endings = new Map<string, string>();
  const waiting = new Map<string, (status: string) => void>();
  bridge.onEvent((event) => {
    if (event.type !== 'run-finished' || !event.runId) return;
    endings.set(event.runId, event.status);
    waiting.get(event.runId)?.(event.status);
  });
  return {
    folder,
    async send(prompt, conversationId) {
      const response = await bridge.request['session:send']({ prompt, ...(conversationId ? { conversationId } : {}) });
      if (!response.ok) throw new Error(response.error);
      const { runId } = response.value;
      const status = endings.get(runId) ?? (await new Promise<string>((resolve) => waiting.set(runId, resolve)));
      if (status !== 'done') throw new Error(`The run of "${prompt}" ended ${status}, not done.`);
      return response.value;
    },
    async newConversation() {
      const response = await bridge.request['conversations:new']({});
      if (!response.ok) throw new Error(response.error);
      return response.value.id;
    },
  };
}
