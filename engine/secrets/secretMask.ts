import { isCredentialVariable, urlWithPassword } from './credentialShapes.js';

/** A secret the engine knows the value of, and the name it is shown by when masked. */
export interface KnownSecret {
  readonly name: string;
  readonly value: string;
}

/** Shorter values are not masked: they would match ordinary text ("true", a port number) far more often than a leak. */
export const minMaskedLength = 8;

/** Replaces every known secret value in a text with `[hidden: NAME]`. */
export type SecretMask = (text: string) => string;

/**
 * A mask for tool results and arguments, applied before they are logged or sent to the model: a command
 * can still print a secret it found elsewhere (a config file, a credential helper), and the model must
 * never read it back. Longer values are replaced first, so a key inside a URL that is itself secret
 * hides as the URL. Values under `minMaskedLength` characters are left alone.
 */
export function secretMask(secrets: readonly KnownSecret[]): SecretMask {
  const byValue = new Map<string, string>();
  for (const { name, value } of secrets) if (value.length >= minMaskedLength && !byValue.has(value)) byValue.set(value, name);
  const ordered = [...byValue].sort(([a], [b]) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    let masked = text;
    for (const [value, name] of ordered) if (masked.includes(value)) masked = masked.split(value).join(`[hidden: ${name}]`);
    return masked;
  };
}

/**
 * The secrets a process environment holds: every variable that looks like a credential by name or value
 * (credentialShapes.ts), with the password of each URL in it on its own, and the workbench's API key.
 */
export function knownSecrets(env: Readonly<Record<string, string | undefined>>, apiKey: string | null): KnownSecret[] {
  const secrets: KnownSecret[] = apiKey ? [{ name: 'API key', value: apiKey }] : [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !isCredentialVariable(name, value)) continue;
    secrets.push({ name, value });
    for (const password of urlPasswords(value)) secrets.push({ name, value: password });
  }
  return secrets;
}

function urlPasswords(value: string): string[] {
  return [...value.matchAll(new RegExp(urlWithPassword.source, 'gi'))].flatMap((match) => {
    const password = match[1] ?? '';
    try {
      return [...new Set([password, decodeURIComponent(password)])];
    } catch {
      return [password];
    }
  });
}
