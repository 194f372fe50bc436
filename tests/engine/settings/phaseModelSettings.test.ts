import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsStore, noKeyStorage, type KeyCipher } from '../../../engine/settings/index.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { xorCipher } from '../../support/xorCipher.js';

const mainKey = 'sk-main-1234567890abcdef';
const researchKey = 'sk-research-abcdef1234567890';

describe('Settings: a model per phase', () => {
  const tempFolder = useTempFolders();

  const store = async (cipher: KeyCipher = xorCipher()) => {
    const configDir = path.join(await tempFolder(), 'config');
    return { settings: new SettingsStore({ configDir, cipher, env: {} }), configDir, file: path.join(configDir, 'settings.json') };
  };

  it('keeps each phase\'s choice, shows a connection\'s key only as set, and stores it encrypted, never in clear', async () => {
    const { settings, file, configDir } = await store();
    const shown = await settings.update({
      baseUrl: 'https://api.example.com/v1',
      model: 'big',
      apiKey: mainKey,
      models: {
        research: { use: 'connection', baseUrl: 'https://reasoning.example/v1', model: 'o3', apiKey: researchKey, contextWindow: 200_000 },
        implement: { use: 'model', model: 'small' },
      },
    });

    expect(shown.models).toEqual({
      research: { use: 'connection', baseUrl: 'https://reasoning.example/v1', model: 'o3', contextWindow: 200_000, apiKeySet: true },
      plan: { use: 'default' },
      implement: { use: 'model', model: 'small', contextWindow: null },
      summary: { use: 'default' },
    });
    const onDisk = await readFile(file, 'utf8');
    expect(onDisk).not.toContain(researchKey);
    expect(onDisk).not.toContain(mainKey);

    const run = await new SettingsStore({ configDir, cipher: xorCipher(), env: {} }).llmSettings();
    expect(run.phaseModels).toEqual({
      research: { baseUrl: 'https://reasoning.example/v1', apiKey: researchKey, model: 'o3', contextWindow: 200_000, price: null },
      implement: { baseUrl: 'https://api.example.com/v1', apiKey: mainKey, model: 'small', contextWindow: null, price: null },
    });
  });

  it('keeps a connection\'s key when it is saved again without one, forgets it on null, and a phase set back to the default has none', async () => {
    const { settings } = await store();
    const connection = { use: 'connection' as const, baseUrl: 'http://127.0.0.1:8000/v1', model: 'local' };
    await settings.update({ models: { plan: { ...connection, apiKey: researchKey } } });

    expect((await settings.update({ models: { plan: { ...connection, contextWindow: 8192 } } })).models.plan).toMatchObject({ apiKeySet: true, contextWindow: 8192 });
    expect((await settings.llmSettings()).phaseModels?.plan?.apiKey).toBe(researchKey);
    expect((await settings.update({ models: { plan: { ...connection, apiKey: null } } })).models.plan).toMatchObject({ apiKeySet: false });
    expect((await settings.llmSettings()).phaseModels?.plan?.apiKey).toBeNull();

    await settings.update({ models: { plan: { ...connection, apiKey: researchKey } } });
    expect((await settings.update({ models: { plan: { use: 'default' } } })).models.plan).toEqual({ use: 'default' });
    expect((await settings.llmSettings()).phaseModels).toBeUndefined();
  });

  it('gives a phase on the default model the default\'s price, and another model none', async () => {
    const { settings } = await store();
    const price = { input: 2, cachedInput: null, output: 8 };
    await settings.update({ model: 'big', price, models: { plan: { use: 'model', model: 'big', contextWindow: 65_536 }, summary: { use: 'model', model: 'small' } } });

    const { phaseModels } = await settings.llmSettings();
    expect(phaseModels?.plan).toMatchObject({ model: 'big', price, contextWindow: 65_536 });
    expect(phaseModels?.summary).toMatchObject({ model: 'small', price: null });
  });

  it('refuses to store a connection\'s key where no key can be stored, saying why, and loses nothing', async () => {
    const { settings } = await store(noKeyStorage('Keys cannot be stored here.'));
    await settings.update({ model: 'big', models: { plan: { use: 'model', model: 'small' } } });

    await expect(settings.update({ models: { plan: { use: 'connection', baseUrl: 'https://x.example/v1', model: 'o3', apiKey: researchKey } } })).rejects.toThrow('Keys cannot be stored here.');
    expect((await settings.get()).models.plan).toEqual({ use: 'model', model: 'small', contextWindow: null });
  });

  it('tests a phase connection with its own key, only at the base URL it was saved for', async () => {
    const { settings } = await store();
    await settings.update({ apiKey: mainKey, models: { research: { use: 'connection', baseUrl: 'https://reasoning.example/v1', model: 'o3', apiKey: researchKey } } });

    expect(await settings.phaseConnectionFor('research', undefined)).toEqual({ baseUrl: 'https://reasoning.example/v1', model: 'o3', apiKey: researchKey });
    await expect(settings.phaseConnectionFor('research', 'https://elsewhere.example/v1')).rejects.toThrow(
      'The stored API key of this connection was saved for https://reasoning.example/v1, and is not sent to https://elsewhere.example/v1: type the key again to test this server.',
    );
    // A phase without a connection of its own is never tested with the main key.
    expect(await settings.phaseConnectionFor('plan', 'https://other.example/v1')).toEqual({ baseUrl: 'https://other.example/v1', model: null, apiKey: null });
    await expect(settings.phaseConnectionFor('plan', undefined)).rejects.toThrow('Plan has no connection of its own: type its base URL to test it.');
  });
});
