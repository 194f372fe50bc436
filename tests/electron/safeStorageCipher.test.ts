import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configDir, SettingsStore } from '../../engine/settings/index.js';

/** A keychain stand-in that really encrypts, so "not in clear" is a meaningful check. */
const safeStorage = vi.hoisted(() => ({
  available: true,
  backend: 'gnome_libsecret' as string,
  key: Buffer.alloc(0),
  isEncryptionAvailable() {
    return this.available;
  },
  getSelectedStorageBackend() {
    return this.backend;
  },
  encryptString(plain: string) {
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', this.key, iv);
    return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final()]);
  },
  decryptString(data: Buffer) {
    const decipher = createDecipheriv('aes-256-cbc', this.key, data.subarray(0, 16));
    return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]).toString('utf8');
  },
}));
vi.mock('electron', () => ({ safeStorage }));

const { safeStorageCipher } = await import('../../electron/safeStorageCipher.js');

const apiKey = 'sk-test-0123456789abcdefSECRET';
let dir: string;

beforeEach(async () => {
  Object.assign(safeStorage, { available: true, backend: 'gnome_libsecret', key: randomBytes(32) });
  dir = await mkdtemp(path.join(os.tmpdir(), 'cipher-config-'));
  vi.stubEnv('RPI_WORKBENCH_CONFIG_DIR', dir);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

const settingsFile = () => readFile(path.join(configDir(), 'settings.json'), 'utf8');

describe('safeStorageCipher', () => {
  it('round-trips a key through the keychain', () => {
    const cipher = safeStorageCipher('linux');
    expect(cipher.availability()).toEqual({ ok: true });
    expect(cipher.decrypt(cipher.encrypt(apiKey))).toBe(apiKey);
  });

  it.each(['basic_text', 'unknown'])('refuses on Linux when the backend is %s, pointing to OPENAI_API_KEY', (backend) => {
    safeStorage.backend = backend;
    const cipher = safeStorageCipher('linux');
    const availability = cipher.availability();
    expect(availability.ok).toBe(false);
    expect(availability.ok ? '' : availability.reason).toMatch(/no keyring.*OPENAI_API_KEY/s);
    expect(() => cipher.encrypt(apiKey)).toThrow(/OPENAI_API_KEY/);
  });

  it('refuses anywhere encryption is unavailable', () => {
    safeStorage.available = false;
    expect(safeStorageCipher('darwin').availability()).toMatchObject({ ok: false, reason: expect.stringContaining('OPENAI_API_KEY') });
  });

  it('stores the key in settings.json only encrypted', async () => {
    const settings = new SettingsStore({ configDir: configDir(), cipher: safeStorageCipher('linux'), env: {} });
    expect(await settings.update({ apiKey, model: 'gpt-test' })).toMatchObject({ apiKeySet: true, apiKeySource: 'stored' });
    const written = await settingsFile();
    expect(written).not.toContain(apiKey);
    expect(written).not.toContain(Buffer.from(apiKey).toString('base64'));
    expect(written).not.toContain('SECRET');
    expect((await settings.llmSettings()).apiKey).toBe(apiKey);
  });

  it('writes nothing at all when it must refuse', async () => {
    safeStorage.backend = 'basic_text';
    const settings = new SettingsStore({ configDir: configDir(), cipher: safeStorageCipher('linux'), env: {} });
    await expect(settings.update({ apiKey })).rejects.toThrow(/OPENAI_API_KEY/);
    await expect(settingsFile()).rejects.toThrow(/ENOENT/);
  });
});
