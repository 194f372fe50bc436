// @vitest-environment happy-dom
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { serveApp } from '../../support/servedApp.js';
import { useTempFolders } from '../../support/tempFolder.js';

afterEach(cleanup);

const tempFolder = useTempFolders('rpi-settings-');
const startLlm = useFakeLlmStarter();

/** The App served by a real browser host, with `settings` saved in its config dir. */
async function servedApp(settings: Record<string, unknown>): Promise<{ configDir: string }> {
  const [folder, configDir] = [await tempFolder(), await tempFolder()];
  await serveApp({ folder, configDir, settings });
  return { configDir };
}

/** Opens Settings with Ctrl+, and returns the dialog. */
async function openSettings(): Promise<HTMLElement> {
  fireEvent.keyDown(window, { key: ',', ctrlKey: true });
  return screen.findByTestId('settings-dialog');
}

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label) as HTMLInputElement & HTMLSelectElement;
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
const unreachable = 'http://127.0.0.1:9/v1';

describe('Test connection', () => {
  it('lists the models with the unsaved base URL and model, and picks one by click', async () => {
    const llm = await startLlm({ models: ['fake-model', 'llama3.1', 'qwen2.5-coder'] });
    await servedApp({ baseUrl: unreachable, model: 'fake-model' });
    const dialog = await openSettings();
    type(field(dialog, 'Base URL'), llm.baseUrl);
    type(field(dialog, 'Model'), 'qwen2.5');

    fireEvent.click(within(dialog).getByTestId('test-connection'));
    const result = await within(dialog).findByTestId('connection-result');
    expect(result.dataset.ok).toBe('true');
    expect(result.textContent).toContain('the server lists 3 models.');
    expect(result.textContent).toContain('“qwen2.5” is not among them');
    const listed = within(result).getByRole('list', { name: 'Models on the server' });
    expect(within(listed).getAllByRole('button').map((button) => button.textContent)).toEqual(['fake-model', 'llama3.1', 'qwen2.5-coder']);

    fireEvent.click(within(listed).getByRole('button', { name: 'qwen2.5-coder' }));
    expect(field(dialog, 'Model').value).toBe('qwen2.5-coder');
    fireEvent.click(within(dialog).getByTestId('test-connection'));
    await waitFor(() => expect(within(dialog).getByTestId('connection-result').textContent).toContain('“qwen2.5-coder” is among them.'));
    expect(llm.requests.filter((request) => request.path === '/v1/models')).toHaveLength(2);
  });

  it('shows the exact error when the server refuses', async () => {
    const llm = await startLlm({ apiKey: 'sk-only-this-one' });
    await servedApp({ baseUrl: llm.baseUrl, model: 'fake-model' });
    const dialog = await openSettings();
    fireEvent.click(within(dialog).getByTestId('test-connection'));
    const result = await within(dialog).findByTestId('connection-result');
    expect(result.dataset.ok).toBe('false');
    expect(result.textContent).toBe(
      `The model server at ${llm.baseUrl} rejected the API key (HTTP 401). Check the API key in Settings or OPENAI_API_KEY.`,
    );
  });
});

describe('approval settings', () => {
  it('saves the approval policies, the plan review switch and the timeout', async () => {
    const { configDir } = await servedApp({ baseUrl: unreachable, model: 'fake-model' });
    const dialog = await openSettings();
    expect(field(dialog, 'File changes').value).toBe('ask');
    fireEvent.change(field(dialog, 'File changes'), { target: { value: 'auto' } });
    fireEvent.change(field(dialog, 'Commands'), { target: { value: 'allow-list' } });
    type(field(dialog, 'Approval timeout (seconds)'), '120');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Review the plan before it is implemented' }));
    fireEvent.submit(within(dialog).getByRole('button', { name: 'Save' }).closest('form')!);

    await waitFor(() => expect(screen.queryByTestId('settings-dialog')).toBeNull());
    const saved = JSON.parse(await readFile(path.join(configDir, 'settings.json'), 'utf8')) as { approvals: unknown };
    expect(saved.approvals).toEqual({ files: 'auto', commands: 'allow-list', timeoutSeconds: 120, reviewPlan: true });
    const reopened = await openSettings();
    expect(field(reopened, 'Commands').value).toBe('allow-list');
    expect((within(reopened).getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
  });

  it('shows what the host refused, and keeps the dialog open', async () => {
    await servedApp({ baseUrl: unreachable, model: 'fake-model' });
    const dialog = await openSettings();
    type(field(dialog, 'Approval timeout (seconds)'), '5');
    fireEvent.submit(within(dialog).getByRole('button', { name: 'Save' }).closest('form')!);
    expect((await within(dialog).findByRole('alert')).textContent).toBe('approvals.timeoutSeconds must be at least 10 seconds');
    expect(screen.getByTestId('settings-dialog')).toBeTruthy();
  });
});
