import type { LearnedContextWindow } from '../../contract/index.js';

/** A JSON object's fields, or null for anything else. */
export function fieldsOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** A count of tokens as a server reports it: a positive whole number, else null (0 and -1 mean "unset" on some servers). */
export function tokensIn(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

/** 131072 → "131,072". */
export function tokensText(tokens: number): string {
  return tokens.toLocaleString('en-US');
}

export function learnedFromServer(tokens: number, detail: string): LearnedContextWindow {
  return { tokens, source: 'server', detail };
}
