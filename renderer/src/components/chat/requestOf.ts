import type { Message } from '../../../../engine/contract/index.js';

/** The user message a message belongs to: itself, or for a summary the nearest request before it. */
export function requestOf(messages: readonly Message[], message: Message): Message | null {
  const index = messages.findIndex((candidate) => candidate.id === message.id);
  if (index < 0) return null;
  return messages.slice(0, index + 1).findLast((candidate) => candidate.role === 'user') ?? null;
}
