// @vitest-environment happy-dom
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { serveApp } from '../../../support/servedApp.js';
import { useTempFolders } from '../../../support/tempFolder.js';

afterEach(cleanup);

const tempFolder = useTempFolders('rpi-cost-settings-');

/** The App served by a real browser host with `settings` saved; returns where its settings.json is. */
async function servedApp(settings: Record<string, unknown>): Promise<string> {
  const [folder, configDir] = [await tempFolder(), await tempFolder()];
  await serveApp({ folder, configDir, settings });
  return path.join(configDir, 'settings.json');
}

async function openSettings(): Promise<HTMLElement> {
  fireEvent.keyDown(window, { key: ',', ctrlKey: true });
  return screen.findByTestId('settings-dialog');
}

const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label) as HTMLInputElement & HTMLSelectElement;
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
const save = (dialog: HTMLElement) => fireEvent.submit(within(dialog).getByRole('button', { name: 'Save' }).closest('form')!);
const prices = (dialog: HTMLElement) => ['Input price', 'Cached input price', 'Output price'].map((label) => field(dialog, label).value);
async function saveAndClose(dialog: HTMLElement): Promise<void> {
  save(dialog);
  await waitFor(() => expect(screen.queryByTestId('settings-dialog')).toBeNull());
}
const saved = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
const unreachable = 'http://127.0.0.1:9/v1';

/** Each test starts a browser host process and saves up to three times. */
describe('cost settings', { timeout: 60_000 }, () => {
  it('saves prompt caching off and the price of the model, shows them again, and forgets the price when its fields are emptied', async () => {
    const file = await servedApp({ baseUrl: unreachable, model: 'gpt-4.1-mini' });
    const dialog = await openSettings();
    expect(field(dialog, 'Prompt caching').value).toBe('auto');
    expect(prices(dialog)).toEqual(['', '', '']);

    fireEvent.change(field(dialog, 'Prompt caching'), { target: { value: 'off' } });
    type(field(dialog, 'Input price'), '0.4');
    type(field(dialog, 'Cached input price'), '0.1');
    type(field(dialog, 'Output price'), '1.6');
    await saveAndClose(dialog);
    expect(await saved(file)).toMatchObject({ promptCaching: 'off', price: { input: 0.4, cachedInput: 0.1, output: 1.6, model: 'gpt-4.1-mini' } });

    const reopened = await openSettings();
    expect(field(reopened, 'Prompt caching').value).toBe('off');
    expect(prices(reopened)).toEqual(['0.4', '0.1', '1.6']);
    type(field(reopened, 'Cached input price'), '');
    await saveAndClose(reopened);
    expect((await saved(file))['price']).toEqual({ input: 0.4, cachedInput: null, output: 1.6, model: 'gpt-4.1-mini' });

    const again = await openSettings();
    type(field(again, 'Input price'), '');
    type(field(again, 'Output price'), '');
    await saveAndClose(again);
    expect((await saved(file))['price']).toBeNull();
  });

  it('says what is missing when an output price is typed without an input price, and keeps the dialog open', async () => {
    await servedApp({ baseUrl: unreachable, model: 'gpt-4.1-mini' });
    const dialog = await openSettings();
    type(field(dialog, 'Output price'), '1.6');
    save(dialog);

    expect((await within(dialog).findByRole('alert')).textContent).toBe('price.input must be a price in dollars per million tokens');
    expect(screen.getByTestId('settings-dialog')).toBeTruthy();
  });
});
