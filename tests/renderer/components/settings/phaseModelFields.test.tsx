// @vitest-environment happy-dom
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeLlmStarter } from '../../../support/fakeLlm/useFakeLlm.js';
import { serveApp } from '../../../support/servedApp.js';
import { useTempFolders } from '../../../support/tempFolder.js';

afterEach(cleanup);

const tempFolder = useTempFolders('rpi-phase-models-');
const startLlm = useFakeLlmStarter();

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label) as HTMLInputElement & HTMLSelectElement;
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

async function openSettings(): Promise<HTMLElement> {
  fireEvent.keyDown(window, { key: ',', ctrlKey: true });
  return screen.findByTestId('settings-dialog');
}

describe('Settings → Models', () => {
  it('saves a phase on another model of the server and one on a connection of its own, tests that connection, and shows them again', async () => {
    const planner = await startLlm({ models: ['o3', 'o4-mini'] });
    const [folder, configDir] = [await tempFolder(), await tempFolder()];
    await serveApp({ folder, configDir, settings: { baseUrl: 'http://127.0.0.1:9/v1', model: 'big' } });
    const dialog = await openSettings();

    fireEvent.change(field(dialog, 'Research'), { target: { value: 'model' } });
    type(field(dialog, 'Research model'), 'deep-thinker');
    fireEvent.change(field(dialog, 'Plan'), { target: { value: 'connection' } });
    type(field(dialog, 'Plan base URL'), planner.baseUrl);
    type(field(dialog, 'Plan model'), 'o3');
    type(field(dialog, 'Plan context window (tokens)'), '65536');
    // This host stores no key: the connection's key field says so by being off.
    expect(field(dialog, 'Plan API key').disabled).toBe(true);

    fireEvent.click(within(dialog).getByTestId('test-connection-plan'));
    await waitFor(() => expect(within(within(dialog).getByTestId('phase-model-plan')).getByTestId('connection-result').textContent).toContain('“o3” is among them.'), { timeout: 10_000 });
    expect(planner.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });

    fireEvent.submit(within(dialog).getByRole('button', { name: 'Save' }).closest('form')!);
    await waitFor(() => expect(screen.queryByTestId('settings-dialog')).toBeNull());
    const saved = JSON.parse(await readFile(path.join(configDir, 'settings.json'), 'utf8')) as { models: unknown };
    expect(saved.models).toEqual({
      research: { use: 'model', model: 'deep-thinker', contextWindow: null },
      plan: { use: 'connection', baseUrl: planner.baseUrl, model: 'o3', contextWindow: 65_536 },
    });

    const reopened = await openSettings();
    expect(field(reopened, 'Research').value).toBe('model');
    expect(field(reopened, 'Plan base URL').value).toBe(planner.baseUrl);
    expect(field(reopened, 'Implement').value).toBe('default');
    expect(within(reopened).queryByLabelText('Implement model')).toBeNull();
  }, 60_000);

  it('shows what the host refused in a phase, and keeps the dialog open', async () => {
    const [folder, configDir] = [await tempFolder(), await tempFolder()];
    await serveApp({ folder, configDir, settings: { baseUrl: 'http://127.0.0.1:9/v1', model: 'big' } });
    const dialog = await openSettings();
    fireEvent.change(field(dialog, 'Summary'), { target: { value: 'model' } });
    type(field(dialog, 'Summary model'), 'small');
    type(field(dialog, 'Summary context window (tokens)'), '100');
    fireEvent.submit(within(dialog).getByRole('button', { name: 'Save' }).closest('form')!);
    expect((await within(dialog).findByRole('alert', {}, { timeout: 10_000 })).textContent).toBe('models.summary.contextWindow must be at least 1024 tokens');
  }, 60_000);
});
