import { isCredentialVariable, urlWithPassword } from './credentialShapes.js';

/** A secret the engine knows the value of, and the name it is shown by when masked. */
export interface KnownSecret {
  readonly name: string;
  readonly value: string;
}

/**
 * Whether a value is distinctive enough to look for inside other text: at least 12 characters, or 8 with
 * three kinds of character (lower, upper, digit, other), and not a path. A shorter or plainer value
 * (`POSTGRES_PASSWORD=postgres`, `AUTH_MODE=disabled`, `HF_TOKEN_PATH=/home/me/.hf/token`) would match
 * ordinary text — a PATH entry, an import — far more often than a leak, and hiding it there breaks more
 * than it protects.
 */
export function isDistinctive(value: string): boolean {
  if (value.length < 8 || /^(?:[~/.]|[a-z]:[\\/])/i.test(value)) return false;
  if (value.length >= 12) return true;
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^a-zA-Z\d]/].filter((kind) => kind.test(value)).length;
  return kinds >= 3;
}

/** Replaces every known secret value in a text with `[hidden: NAME]`. */
export type SecretMask = (text: string) => string;

/** What a masked secret is replaced with; tools refuse to write it back (see refusesPlaceholders). */
export const hiddenPrefix = '[hidden: ';

/** The note a cut output carries where bytes were left out (outputCapture.ts): a secret may straddle it. */
const cutNote = /\n… \d+ bytes omitted …\n/g;
const minEdgeLength = 6;

/**
 * A mask for tool results and arguments, applied before they are logged or sent to the model: a command
 * can still print a secret it found elsewhere (a config file, a credential helper), and the model must
 * never read it back. Longer values are replaced first, so a key inside a URL that is itself secret
 * hides as the URL. Only distinctive values are looked for (isDistinctive); each line of a multi-line
 * secret (a PEM key) is looked for on its own too, since line numbers or CRLF may split it. Where an
 * output was cut, a piece of a secret left at either side of the cut is hidden as well.
 */
export function secretMask(secrets: readonly KnownSecret[]): SecretMask {
  const byValue = new Map<string, string>();
  for (const { name, value } of secrets) {
    for (const piece of [value, ...value.split(/\r?\n/)]) if (isDistinctive(piece) && !byValue.has(piece)) byValue.set(piece, name);
  }
  const ordered = [...byValue].sort(([a], [b]) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => {
    let masked = text;
    for (const [value, name] of ordered) if (masked.includes(value)) masked = masked.split(value).join(`${hiddenPrefix}${name}]`);
    return masked.includes(' bytes omitted …') ? hideCutEdges(masked, ordered) : masked;
  };
}

/** `value` with every string it holds masked, however deep (tool arguments, shown or logged). */
export function maskStrings<T>(value: T, mask: SecretMask): T {
  if (typeof value === 'string') return mask(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => maskStrings(item, mask)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskStrings(item as unknown, mask)])) as T;
  }
  return value;
}

/** Hides what ends just before a cut note as the start of a secret, or starts just after it as the end of one. */
function hideCutEdges(text: string, secrets: readonly (readonly [string, string])[]): string {
  const parts = text.split(cutNote);
  const notes = text.match(cutNote) ?? [];
  for (let index = 0; index < notes.length; index++) {
    parts[index] = withoutEdge(parts[index] ?? '', secrets, 'end');
    parts[index + 1] = withoutEdge(parts[index + 1] ?? '', secrets, 'start');
  }
  return parts.map((part, index) => part + (notes[index] ?? '')).join('');
}

function withoutEdge(part: string, secrets: readonly (readonly [string, string])[], edge: 'start' | 'end'): string {
  for (const [value, name] of secrets) {
    for (let size = value.length - 1; size >= minEdgeLength; size--) {
      if (edge === 'end' && part.endsWith(value.slice(0, size))) return `${part.slice(0, part.length - size)}${hiddenPrefix}${name}]`;
      if (edge === 'start' && part.startsWith(value.slice(value.length - size))) return `${hiddenPrefix}${name}]${part.slice(size)}`;
    }
  }
  return part;
}

/**
 * The secrets a process environment holds: every variable that looks like a credential by name or value
 * (credentialShapes.ts), with the password of each URL in it on its own, and the workbench's API keys
 * (the default connection's and those of phases with a connection of their own).
 */
export function knownSecrets(env: Readonly<Record<string, string | undefined>>, apiKeys: string | null | readonly string[]): KnownSecret[] {
  const keys = apiKeys === null ? [] : typeof apiKeys === 'string' ? [apiKeys] : apiKeys;
  const secrets: KnownSecret[] = keys.filter((key) => key !== '').map((value) => ({ name: 'API key', value }));
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
