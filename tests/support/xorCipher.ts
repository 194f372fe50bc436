import type { KeyCipher } from '../../engine/settings/index.js';

/** A reversible stand-in for the OS keychain: XOR with a fixed pad. Enough to prove the store never writes the key itself. */
export function xorCipher(): KeyCipher {
  const xor = (bytes: Buffer) => Buffer.from(bytes.map((byte, i) => byte ^ (0x5a + i) % 256));
  return {
    availability: () => ({ ok: true }),
    encrypt: (plain) => xor(Buffer.from(plain, 'utf8')),
    decrypt: (data) => xor(data).toString('utf8'),
  };
}
