/**
 * Encrypts the API key at rest. The desktop app backs it with Electron's safeStorage (OS keychain);
 * hosts without one cannot store a key at all and say why, rather than writing it in clear.
 */
export interface KeyCipher {
  availability(): { ok: true } | { ok: false; reason: string };
  encrypt(plain: string): Buffer;
  decrypt(data: Buffer): string;
}

export function noKeyStorage(reason: string): KeyCipher {
  const refuse = (): never => {
    throw new Error(reason);
  };
  return { availability: () => ({ ok: false, reason }), encrypt: refuse, decrypt: refuse };
}
