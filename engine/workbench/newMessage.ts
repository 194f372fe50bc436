import { randomUUID } from 'node:crypto';
import type { Message } from '../contract/index.js';

/** A conversation message with a fresh id, stamped now. */
export function newMessage(role: Message['role'], text: string): Message {
  return { id: `m-${randomUUID()}`, role, text, ts: Date.now() };
}
