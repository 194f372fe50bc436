import path from 'node:path';
import { messageSchema, type Message } from '../contract/index.js';
import { AppendLog } from './appendLog.js';
import { readJsonl, type JsonlRead } from './jsonl.js';

export const conversationFile = (stateDir: string): string => path.join(stateDir, 'conversation.jsonl');
const label = 'conversation.jsonl';

/** The chat history: user messages and final summaries, oldest first. */
export function loadConversation(stateDir: string): Promise<JsonlRead<Message>> {
  return readJsonl(conversationFile(stateDir), messageSchema, label);
}

/** The last message when it is a request still waiting for its answer (a stopped run): what resume and discard act on. */
export function unansweredRequest(messages: readonly Message[]): Message | null {
  const last = messages.at(-1);
  return last?.role === 'user' ? last : null;
}

export interface LoadedConversation {
  messages: Message[];
  /** One sentence per line that was skipped or will be cut off. */
  warnings: string[];
}

/** The one writer of `.workbench/conversation.jsonl`: appends messages, and cuts the history back for undo. */
export class ConversationStore {
  private readonly log: AppendLog<Message>;

  /** `onCut` hears of an incomplete last line cut off before an append (see AppendLog). */
  constructor(stateDir: string, onCut?: (message: string) => void) {
    this.log = new AppendLog({ file: conversationFile(stateDir), schema: messageSchema, label, ...(onCut ? { onCut } : {}) });
  }

  async load(): Promise<LoadedConversation> {
    const { records, warnings } = await this.log.load();
    return { messages: records, warnings };
  }

  async append(message: Message): Promise<void> {
    await this.log.append(messageSchema.parse(message));
  }

  /** Removes the message and everything after it; every byte before it stays as it was, corrupt lines included. */
  async truncateAt(messageId: string): Promise<void> {
    if (!(await this.log.truncateAt((message) => message.id === messageId))) {
      throw new Error(`Cannot cut the conversation at message "${messageId}": there is no message with that id.`);
    }
  }
}
