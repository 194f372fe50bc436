import { createHash, randomUUID } from 'node:crypto';

/**
 * The ids the engine gives conversations. Only a name of this shape found on disk under
 * `conversations/` is ever made into a path: an id from a request or a planted folder is looked up first.
 */
export const conversationIdPattern = /^c-[0-9a-f-]{8,64}$/;

export const isConversationId = (value: string): boolean => conversationIdPattern.test(value);

export const newConversationId = (): string => `c-${randomUUID()}`;

/**
 * The id of a folder's only conversation in the single-conversation layout, the same before, during and
 * after its move: derived from its first message (which never changes), so `--conversation` given while
 * the folder was in the old layout still names it once moved.
 */
export function firstConversationId(firstMessageId: string | null): string {
  return `c-${createHash('sha256').update(firstMessageId ?? 'no message').digest('hex').slice(0, 32)}`;
}
