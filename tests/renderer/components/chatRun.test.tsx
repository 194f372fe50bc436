// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FakeLlm } from '../../support/fakeLlm/index.js';
import { useFakeLlm } from '../../support/fakeLlm/useFakeLlm.js';
import { autoApprovals, call, planText, say } from '../../support/rpiScript.js';
import { serveApp, useFakeChatLayout } from '../../support/servedApp.js';
import { useTempFolders } from '../../support/tempFolder.js';

useFakeChatLayout();

const tempFolder = useTempFolders('rpi-chat-run-');
const llm = useFakeLlm();

/** The App served by a real browser host on `folder`, its settings pointing at `model`, changes approved. */
const servedApp = async (folder: string, model: FakeLlm) =>
  serveApp({ folder, configDir: await tempFolder(), settings: { baseUrl: model.baseUrl, model: 'fake-model', approvals: autoApprovals } });

const composer = () => screen.getByTestId('composer') as HTMLTextAreaElement;
const roles = () => screen.queryAllByTestId('message').map((row) => row.dataset.role);
const noPlan = '# Execution Plan\n\n## Items\n';
const slowly = { timeout: 8000 };

function typeRequest(text: string) {
  fireEvent.change(composer(), { target: { value: text } });
}

describe('the composer', () => {
  it('sends on Enter, adds a line on Shift+Enter, and says why it waits while a run is active', async () => {
    llm().enqueue(say('Looked around.', { delayMs: 150 }), say(noPlan), say('Nothing to do.'));
    await servedApp(await tempFolder(), llm());

    typeRequest('First line');
    expect(fireEvent.keyDown(composer(), { key: 'Enter', shiftKey: true })).toBe(true);
    expect(roles()).toEqual([]);

    fireEvent.keyDown(composer(), { key: 'Enter' });
    await waitFor(() => expect(roles()).toEqual(['user']));
    // The message's event can arrive before the send request's answer, which clears the box.
    await waitFor(() => expect(composer().value).toBe(''));
    await screen.findByText('A run is in progress — Stop it or wait for it to finish');
    expect(composer().readOnly).toBe(true);
    expect((screen.getByTestId('send-button') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('stop-button')).toBeTruthy();

    await waitFor(() => expect(roles()).toEqual(['user', 'assistant']), slowly);
    expect(screen.queryByText('A run is in progress — Stop it or wait for it to finish')).toBeNull();
    expect(screen.queryByTestId('stop-button')).toBeNull();
  });

  it('Esc stops the run; the banner then resumes it at the step it stopped on', async () => {
    llm().enqueue(
      say('Two files to write.'),
      say(planText('First', 'Second')),
      call('write_file', { path: 'one.txt', content: '1\n' }),
      say('First done.'),
      call('run_command', { command: 'sleep 30' }),
    );
    const store = await servedApp(await tempFolder(), llm());
    typeRequest('Two steps');
    fireEvent.keyDown(composer(), { key: 'Enter' });
    await waitFor(() => expect(store.getState().rpi.items.map((item) => item.status)).toEqual(['done', 'pending']), slowly);
    // Stop only once `sleep 30` runs, so the resumed run gets the turns queued for it below.
    await waitFor(() => expect(store.getState().run?.activity.some((entry) => entry.tool === 'run_command' && entry.status === 'running')).toBe(true), slowly);

    fireEvent.keyDown(composer(), { key: 'Escape' });
    const banner = await screen.findByTestId('resume-banner', {}, slowly);
    expect(composer().readOnly).toBe(false);

    llm().enqueue(say('Second done.'), say('Both steps done.'));
    fireEvent.click(within(banner).getByRole('button', { name: 'Resume (step 2 of 2)' }));
    await waitFor(() => expect(screen.queryByTestId('resume-banner')).toBeNull());
    await waitFor(() => expect(roles()).toEqual(['user', 'assistant']), slowly);
    expect(screen.getAllByTestId('message')[1]!.textContent).toContain('Both steps done.');
  });

  it('Stop cancels a run before it has a plan; Resume then has no step to name', async () => {
    llm().enqueue(say('Looking…', { delayMs: 2000 }));
    await servedApp(await tempFolder(), llm());
    typeRequest('Look around');
    fireEvent.keyDown(composer(), { key: 'Enter' });
    fireEvent.click(await screen.findByTestId('stop-button'));
    const banner = await screen.findByTestId('resume-banner', {}, slowly);
    expect(within(banner).getByRole('button', { name: 'Resume' })).toBeTruthy();
    fireEvent.click(within(banner).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByTestId('resume-banner')).toBeNull());
  });
});

describe('a run in the chat', () => {
  const summary = ['## Done', '', '| File | Change |', '|---|---|', '| parse.ts | new |'].join('\n');

  it('streams the summary in as Markdown, then keeps it as the answer', async () => {
    llm().enqueue(say('The folder is empty.'), say(noPlan), say(summary, { delayMs: 80 }));
    await servedApp(await tempFolder(), llm());
    typeRequest('Add a parser');
    fireEvent.keyDown(composer(), { key: 'Enter' });

    const streaming = await screen.findByTestId('streaming-summary', {}, slowly);
    expect(within(streaming).getByRole('heading', { name: 'Done' })).toBeTruthy();
    expect(streaming.textContent).not.toContain('parse.ts');

    await waitFor(() => expect(roles()).toEqual(['user', 'assistant']), slowly);
    expect(screen.queryByTestId('streaming-summary')).toBeNull();
    expect(within(screen.getAllByTestId('message')[1]!).getByRole('table')).toBeTruthy();
  });

  it('shows why a run failed, once, with Retry going on from where it stopped', async () => {
    llm().enqueue(say('unused', { fault: 'http-401' }));
    await servedApp(await tempFolder(), llm());
    typeRequest('Add a parser');
    fireEvent.keyDown(composer(), { key: 'Enter' });

    const failure = await screen.findByTestId('run-failure', {}, slowly);
    const error = `The model server at ${llm().baseUrl} rejected the API key (HTTP 401). Check the API key in Settings or OPENAI_API_KEY.`;
    expect(within(failure).getByText('The run failed during research')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Conversation' })).getAllByText(error)).toHaveLength(1);
    expect(document.querySelector('.banner-error')).toBeNull();

    llm().enqueue(say('The folder is empty.'), say(noPlan), say('Nothing needed doing.'));
    fireEvent.click(within(failure).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(roles()).toEqual(['user', 'assistant']), slowly);
    expect(screen.getAllByTestId('message')[1]!.textContent).toContain('Nothing needed doing.');
    expect(screen.queryByTestId('run-failure')).toBeNull();
  });
});
