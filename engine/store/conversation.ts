import path from 'node:path';
import { messageSchema, type Message } from '../contract/index.js';
import { readJsonl, type JsonlRead } from './jsonl.js';

export const conversationFile = (stateDir: string): string => path.join(stateDir, 'conversation.jsonl');

/** The chat history: user messages and final summaries, oldest first. */
export function loadConversation(stateDir: string): Promise<JsonlRead<Message>> {
  return readJsonl(conversationFile(stateDir), messageSchema, 'conversation.jsonl');
}
