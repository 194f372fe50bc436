import { safeStorage } from 'electron';
import type { KeyCipher } from '../engine/index.js';

const useEnvironment = 'Set OPENAI_API_KEY in the environment instead.';

/**
 * Encrypts the API key with the OS keychain through Electron's safeStorage. On Linux without a keyring
 * safeStorage falls back to a hard-coded password ('basic_text'), which would only obfuscate the key, so
 * storing is refused there with a reason the settings screen shows. Only usable once the app is ready.
 */
export function safeStorageCipher(platform: NodeJS.Platform = process.platform): KeyCipher {
  const availability: KeyCipher['availability'] = () => {
    if (!safeStorage.isEncryptionAvailable()) {
      return { ok: false, reason: `The API key cannot be stored: the OS keychain is not available. ${useEnvironment}` };
    }
    if (platform === 'linux') {
      const backend = safeStorage.getSelectedStorageBackend();
      if (backend === 'basic_text' || backend === 'unknown') {
        return {
          ok: false,
          reason:
            'The API key cannot be stored: no keyring (GNOME Keyring, KWallet) is running, so it could only be ' +
            `saved with a built-in password. ${useEnvironment}`,
        };
      }
    }
    return { ok: true };
  };
  const requireAvailable = () => {
    const available = availability();
    if (!available.ok) throw new Error(available.reason);
  };
  return {
    availability,
    encrypt(plain) {
      requireAvailable();
      return safeStorage.encryptString(plain);
    },
    decrypt(data) {
      requireAvailable();
      return safeStorage.decryptString(data);
    },
  };
}
