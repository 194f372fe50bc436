import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingsStore, defaultBaseUrl, noKeyStorage, type KeyCipher } from '../../../engine/settings/index.js';
import { useTempFolders } from '../../support/tempFolder.js';
import { xorCipher } from '../../support/xorCipher.js';

const secret = 'sk-test-1234567890abcdef';

describe('SettingsStore', () => {
  const tempFolder = useTempFolders();
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const store = async (options: { cipher?: KeyCipher; env?: NodeJS.ProcessEnv } = {}) => {
    const configDir = path.join(await tempFolder(), 'config');
    const settings = new SettingsStore({ configDir, cipher: options.cipher ?? xorCipher(), env: options.env ?? {} });
    return { settings, configDir, file: path.join(configDir, 'settings.json') };
  };

  it('keeps the retry count, 0 to 10, for the model client', async () => {
    const { settings } = await store();
    expect(await settings.update({ retries: 0 })).toMatchObject({ retries: 0 });
    expect(await settings.llmSettings()).toMatchObject({ retries: 0 });
  });

  it('keeps prompt caching on or off, for the model client', async () => {
    const { settings, configDir } = await store();
    expect(await settings.update({ promptCaching: 'off' })).toMatchObject({ promptCaching: 'off' });
    expect(await new SettingsStore({ configDir, cipher: xorCipher(), env: {} }).llmSettings()).toMatchObject({ promptCaching: 'off' });
    expect(await settings.update({ promptCaching: 'auto' })).toMatchObject({ promptCaching: 'auto' });
  });

  it('keeps a price for the model it was saved with, and forgets it on null', async () => {
    const { settings, configDir } = await store();
    const price = { input: 0.4, cachedInput: 0.1, output: 1.6 };

    expect(await settings.update({ model: 'gpt-4.1-mini', price })).toMatchObject({ model: 'gpt-4.1-mini', price });
    expect(await new SettingsStore({ configDir, cipher: xorCipher(), env: {} }).llmSettings()).toMatchObject({ model: 'gpt-4.1-mini', price });
    expect(await settings.update({ price: { input: 3, cachedInput: null, output: 15 } })).toMatchObject({ price: { input: 3, cachedInput: null, output: 15 } });
    expect(await settings.update({ price: null })).toMatchObject({ price: null });
    expect((await settings.llmSettings()).price).toBeNull();
  });

  it('prices no other model with it: a model saved later has none until one is given', async () => {
    const { settings } = await store();
    await settings.update({ model: 'gpt-4.1-mini', price: { input: 0.4, cachedInput: 0.1, output: 1.6 } });

    expect(await settings.update({ model: 'qwen2.5-coder:14b' })).toMatchObject({ price: null });
    expect((await settings.llmSettings()).price).toBeNull();
    expect(await settings.update({ model: 'gpt-4.1-mini' })).toMatchObject({ price: { input: 0.4, cachedInput: 0.1, output: 1.6 } });
  });

  it('starts from the defaults without writing anything', async () => {
    const { settings, configDir } = await store();
    expect(await settings.get()).toEqual({
      baseUrl: defaultBaseUrl,
      model: '',
      contextWindow: null,
      toolMode: 'auto',
      retries: 4,
      promptCaching: 'auto',
      price: null,
      apiKeySet: false,
      apiKeySource: 'none',
      models: { research: { use: 'default' }, plan: { use: 'default' }, implement: { use: 'default' }, summary: { use: 'default' } },
      approvals: { files: 'ask', commands: 'ask', timeoutSeconds: 600, reviewPlan: false },
    });
    expect((await settings.llmSettings()).apiKey).toBeNull();
    await expect(readdir(configDir)).rejects.toThrow(/ENOENT/);
  });

  it('stores a key encrypted: settings.json never contains it, a run gets it back', async () => {
    const { settings, file } = await store();
    const shown = await settings.update({ apiKey: secret, model: 'gpt-test' });

    expect(shown).toMatchObject({ model: 'gpt-test', apiKeySet: true, apiKeySource: 'stored' });
    expect(JSON.stringify(shown)).not.toContain(secret);
    const onDisk = await readFile(file, 'utf8');
    expect(onDisk).not.toContain(secret);
    expect(onDisk).not.toContain(Buffer.from(secret).toString('base64'));
    expect(JSON.parse(onDisk)).toHaveProperty('apiKeyEncrypted');
    expect((await settings.llmSettings()).apiKey).toBe(secret);
  });

  it('reads the stored key back in a new store (a restart)', async () => {
    const { settings, configDir } = await store();
    await settings.update({ apiKey: secret });
    const restarted = new SettingsStore({ configDir, cipher: xorCipher(), env: {} });
    expect((await restarted.llmSettings()).apiKey).toBe(secret);
    expect((await restarted.get()).apiKeySource).toBe('stored');
  });

  it('keeps fields a patch does not mention', async () => {
    const { settings } = await store();
    await settings.update({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama', contextWindow: 8192, toolMode: 'text', retries: 2, apiKey: secret });
    await settings.update({ approvals: { commands: 'allow-list', reviewPlan: true } });
    expect(await settings.update({ model: 'qwen', baseUrl: undefined, approvals: { timeoutSeconds: 60 } })).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'qwen',
      contextWindow: 8192,
      toolMode: 'text',
      retries: 2,
      promptCaching: 'auto',
      price: null,
      models: { research: { use: 'default' }, plan: { use: 'default' }, implement: { use: 'default' }, summary: { use: 'default' } },
      apiKeySet: true,
      apiKeySource: 'stored',
      approvals: { files: 'ask', commands: 'allow-list', timeoutSeconds: 60, reviewPlan: true },
    });
    expect(await settings.approvalSettings()).toEqual({ files: 'ask', commands: 'allow-list', timeoutSeconds: 60, reviewPlan: true });
    expect((await settings.llmSettings()).apiKey).toBe(secret);
  });

  it('keeps the context window automatic (null) unless one is set, and reads the former default of 128,000 as automatic', async () => {
    const { settings, file } = await store();
    expect((await settings.update({ contextWindow: 32_768 })).contextWindow).toBe(32_768);
    expect((await settings.llmSettings()).contextWindow).toBe(32_768);
    expect((await settings.update({ contextWindow: null })).contextWindow).toBeNull();
    await writeFile(file, JSON.stringify({ baseUrl: 'http://127.0.0.1:11434/v1', contextWindow: 128_000 }));
    expect((await settings.get()).contextWindow).toBeNull();
  });

  it('prefers OPENAI_API_KEY from the environment and says so', async () => {
    const { settings } = await store({ env: { OPENAI_API_KEY: '  sk-from-env  ' } });
    expect(await settings.get()).toMatchObject({ apiKeySet: true, apiKeySource: 'environment' });
    await settings.update({ apiKey: secret });
    expect((await settings.llmSettings()).apiKey).toBe('sk-from-env');
    expect((await settings.get()).apiKeySource).toBe('environment');
  });

  it('ignores a blank OPENAI_API_KEY', async () => {
    const { settings } = await store({ env: { OPENAI_API_KEY: '   ' } });
    await settings.update({ apiKey: secret });
    expect((await settings.llmSettings()).apiKey).toBe(secret);
    expect((await settings.get()).apiKeySource).toBe('stored');
  });

  it('forgets the stored key on apiKey: null', async () => {
    const { settings, file } = await store();
    await settings.update({ apiKey: secret, model: 'gpt-test' });
    expect(await settings.update({ apiKey: null })).toMatchObject({ model: 'gpt-test', apiKeySet: false, apiKeySource: 'none' });
    expect((await settings.llmSettings()).apiKey).toBeNull();
    expect(JSON.parse(await readFile(file, 'utf8'))).not.toHaveProperty('apiKeyEncrypted');
  });

  it('without key storage, refuses to store a key with the host’s reason and writes nothing', async () => {
    const reason = 'This host cannot encrypt an API key; set OPENAI_API_KEY instead.';
    const { settings, file, configDir } = await store({ cipher: noKeyStorage(reason) });

    await expect(settings.update({ apiKey: secret, model: 'gpt-test' })).rejects.toThrow(reason);
    await expect(readdir(configDir)).rejects.toThrow(/ENOENT/);

    await settings.update({ model: 'gpt-test' });
    const before = await readFile(file, 'utf8');
    await expect(settings.update({ apiKey: secret, model: 'other' })).rejects.toThrow(reason);
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(before).not.toContain(secret);
    expect((await settings.llmSettings()).apiKey).toBeNull();
  });

  it('moves a corrupt settings.json aside and uses the defaults', async () => {
    const { settings, file, configDir } = await store();
    await settings.update({ model: 'x' });
    await writeFile(file, '{"model": "half-written');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    expect(await settings.get()).toMatchObject({ baseUrl: defaultBaseUrl, model: '', apiKeySource: 'none' });

    const files = await readdir(configDir);
    const aside = files.find((name) => name.startsWith('settings.json.invalid-'));
    expect(files).not.toContain('settings.json');
    expect(aside).toBeDefined();
    expect(await readFile(path.join(configDir, aside ?? ''), 'utf8')).toBe('{"model": "half-written');
    expect(warn).toHaveBeenCalledWith(`settings.json was not valid and was moved to ${path.join(configDir, aside ?? '')}; defaults are used.`);
  });

  it('moves aside a settings.json of the wrong shape', async () => {
    const { settings, file, configDir } = await store();
    await settings.update({ model: 'x' });
    await writeFile(file, JSON.stringify({ contextWindow: 'lots' }));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    expect((await settings.get()).contextWindow).toBeNull();
    expect((await readdir(configDir)).filter((name) => name.startsWith('settings.json.invalid-'))).toHaveLength(1);
  });

  it.skipIf(process.platform === 'win32')('writes settings.json readable by the user only, in a private folder', async () => {
    const { settings, file, configDir } = await store();
    await settings.update({ apiKey: secret });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(configDir)).mode & 0o777).toBe(0o700);
    expect(await readdir(configDir)).toEqual(['settings.json']);
  });
});
