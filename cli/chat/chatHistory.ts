import type { Message } from '../../engine/contract/index.js';
import { firstLine, historyTable } from '../terminal/historyFormat.js';
import { visibleLine } from '../terminal/visibleText.js';

/** The request a message id stands for: the user message itself, or the one a summary answers; null when there is no such message. */
export function requestOf(conversation: readonly Message[], messageId: string): Message | null {
  const index = conversation.findIndex((message) => message.id === messageId);
  if (index === -1) return null;
  return conversation.slice(0, index + 1).findLast((message) => message.role === 'user') ?? null;
}

export function latestRequest(conversation: readonly Message[]): Message | null {
  return conversation.findLast((message) => message.role === 'user') ?? null;
}

/** A request named in a line: `3f9c… "Add a greeting module"`. */
export function describeRequest(message: Message): string {
  return `${visibleLine(message.id)} "${firstLine(message.text)}"`;
}

/** /history: the table `history` prints (with the outcome of each request's plan, from `runs`), or a line saying there is nothing yet. */
export function historyText(conversation: readonly Message[], folder: string, runs: Parameters<typeof historyTable>[1] = {}): string {
  return conversation.length === 0 ? `No messages yet in ${visibleLine(folder)}.` : historyTable(conversation, runs);
}

/**
 * The folder's earlier requests for the arrow keys, newest first: only those that fit on one line and
 * hold no control character, since readline shows a recalled line as it is.
 */
export function recalledRequests(conversation: readonly Message[], limit = 200): string[] {
  return conversation
    .filter((message) => message.role === 'user' && message.text.trim() !== '' && visibleLine(message.text) === message.text)
    .map((message) => message.text)
    .reverse()
    .slice(0, limit);
}
