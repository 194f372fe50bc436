import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatch, type Dispatch } from '../../../engine/contract/index.js';
import { requestHandlers } from '../../../engine/host/requestHandlers.js';
import { RecentFolders, SettingsStore } from '../../../engine/settings/index.js';
import { useFakeLlmStarter } from '../../support/fakeLlm/useFakeLlm.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { xorCipher } from '../../support/xorCipher.js';

/**
 * A key is sent only to the base URL it was saved for. "Test connection" takes unsaved form values, so
 * without this any page that reached the host could have the saved key sent to a server of its choosing.
 */

const hostOnly = async (): Promise<never> => {
  throw new Error('a host-only channel');
};

describe('the API key is bound to its base URL', () => {
  const tempFolder = useTempFolders('rpi-keybind-');
  const startLlm = useFakeLlmStarter();

  async function host(env: NodeJS.ProcessEnv = {}): Promise<{ dispatch: Dispatch; settings: SettingsStore; file: string }> {
    const configDir = await tempFolder();
    const settings = new SettingsStore({ configDir, cipher: xorCipher(), env });
    const handlers = requestHandlers(
      { settings, recent: new RecentFolders(configDir), currentWorkbench: () => null },
      { 'folders:pick': hostOnly, 'folders:open': hostOnly, 'host:info': hostOnly },
    );
    return { dispatch: createDispatch(handlers), settings, file: path.join(configDir, 'settings.json') };
  }

  /** Two servers: the one the key was saved for, and one an attacker chose, which records what it is sent. */
  async function servers() {
    const own = await startLlm({ apiKey: 'sk-saved' });
    const attacker = await startLlm();
    const keysSentToAttacker = () => attacker.requests.map((request) => request.headers.authorization ?? null);
    return { own, attacker, keysSentToAttacker };
  }

  it('test-connection sends the stored key to the base URL it was saved for, and a typed key anywhere', async () => {
    const { own, attacker, keysSentToAttacker } = await servers();
    const { dispatch, settings } = await host();
    await settings.update({ baseUrl: own.baseUrl, apiKey: 'sk-saved' });

    expect(await dispatch('settings:test-connection', {})).toMatchObject({ ok: true });
    expect(await dispatch('settings:test-connection', { baseUrl: `${own.baseUrl}/` })).toMatchObject({ ok: true });
    expect(own.requests.map((request) => request.headers.authorization)).toEqual(['Bearer sk-saved', 'Bearer sk-saved']);
    expect(await dispatch('settings:test-connection', { baseUrl: attacker.baseUrl, apiKey: 'sk-typed' })).toMatchObject({ ok: true });
    expect(keysSentToAttacker()).toEqual(['Bearer sk-typed']);
  });

  it('test-connection to another base URL without a typed key is refused, and the stored key never leaves', async () => {
    const { own, attacker, keysSentToAttacker } = await servers();
    const { dispatch, settings } = await host();
    await settings.update({ baseUrl: own.baseUrl, apiKey: 'sk-saved' });

    expect(await dispatch('settings:test-connection', { baseUrl: attacker.baseUrl })).toEqual({
      ok: false,
      error: `settings:test-connection: The stored API key was saved for ${own.baseUrl}, and is not sent to ${attacker.baseUrl}: type the key again to use it with this server.`,
    });
    expect(attacker.requests).toEqual([]);
    expect(keysSentToAttacker()).toEqual([]);
  });

  it('the environment key goes only to the base URL saved in settings', async () => {
    const { own, attacker } = await servers();
    const { dispatch, settings } = await host({ OPENAI_API_KEY: 'sk-saved' });
    await settings.update({ baseUrl: own.baseUrl });

    expect(await dispatch('settings:test-connection', {})).toMatchObject({ ok: true });
    expect(await dispatch('settings:test-connection', { baseUrl: attacker.baseUrl })).toEqual({
      ok: false,
      error: `settings:test-connection: The API key in OPENAI_API_KEY goes only to the saved base URL, ${own.baseUrl}, not to ${attacker.baseUrl}: type the key to use it with this server, or save this base URL first.`,
    });
    expect(attacker.requests).toEqual([]);
  });

  it('saving another base URL does not carry the stored key along: runs refuse until the key is typed again', async () => {
    const { own, attacker } = await servers();
    const { settings } = await host();
    await settings.update({ baseUrl: own.baseUrl, apiKey: 'sk-saved' });
    await settings.update({ baseUrl: attacker.baseUrl, model: 'm' });

    await expect(settings.llmSettings()).rejects.toThrow(`The stored API key was saved for ${own.baseUrl}, and is not sent to ${attacker.baseUrl}`);
    await settings.update({ apiKey: 'sk-new' });
    expect(await settings.llmSettings()).toMatchObject({ baseUrl: attacker.baseUrl, apiKey: 'sk-new' });
    await settings.update({ baseUrl: own.baseUrl });
    await expect(settings.apiKeyFor(own.baseUrl)).rejects.toThrow('type the key again');
  });

  it('a key saved before keys were bound counts as saved for the base URL in settings', async () => {
    const { own, attacker } = await servers();
    const { dispatch, settings, file } = await host();
    await settings.update({ baseUrl: own.baseUrl, apiKey: 'sk-saved' });
    const { apiKeyBaseUrl, ...older } = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(apiKeyBaseUrl).toBe(own.baseUrl);
    await writeFile(file, JSON.stringify(older));

    expect(await settings.llmSettings()).toMatchObject({ apiKey: 'sk-saved' });
    expect(await dispatch('settings:test-connection', { baseUrl: attacker.baseUrl })).toMatchObject({ ok: false });
    await settings.update({ baseUrl: attacker.baseUrl });
    await expect(settings.llmSettings()).rejects.toThrow(`saved for ${own.baseUrl}`);
    expect(attacker.requests).toEqual([]);
  });

  it('forgetting the key forgets its base URL too', async () => {
    const { own } = await servers();
    const { settings, file } = await host();
    await settings.update({ baseUrl: own.baseUrl, apiKey: 'sk-saved' });
    await settings.update({ apiKey: null });
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(onDisk).not.toHaveProperty('apiKeyEncrypted');
    expect(onDisk).not.toHaveProperty('apiKeyBaseUrl');
    expect(await settings.llmSettings()).toMatchObject({ apiKey: null });
  });
});
