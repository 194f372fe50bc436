import type { ChangeRange, Message } from '../contract/index.js';
import type { CheckpointInfo, CheckpointStore } from '../checkpoints/checkpointStore.js';
import type { ConversationStore } from '../store/conversation.js';
import { RunRefusedError } from '../contract/runRefusedError.js';

/** The two ends a request's changes run between. */
export interface ChangeEnds {
  /** The user message the changes belong to. */
  request: Message;
  /** The checkpoint taken before the request. */
  beforeId: string;
  /** The checkpoint taken before the next request; null: the folder as it is now. */
  afterId: string | null;
}

export interface ChangeEndsDeps {
  conversation: Pick<ConversationStore, 'load'>;
  checkpoints: Pick<CheckpointStore, 'list'>;
}

/**
 * Where the changes of a message's request start and end. A summary stands for the request it answers,
 * as in undo. 'request' ends at the next request's checkpoint (or the folder now, for the latest);
 * 'since' always ends at the folder now.
 */
export async function changeEnds(deps: ChangeEndsDeps, messageId: string, range: ChangeRange): Promise<ChangeEnds> {
  const { messages } = await deps.conversation.load();
  const index = messages.findIndex((message) => message.id === messageId);
  if (index < 0) throw new RunRefusedError(`There is no message "${messageId}" in this folder's conversation.`);
  const request = messages.slice(0, index + 1).findLast((candidate) => candidate.role === 'user');
  if (!request) throw new RunRefusedError('This message answers no request, so it changed no files.');
  const runCheckpoints = (await deps.checkpoints.list()).filter((info) => info.tag.reason === 'run');
  const before = checkpointOf(runCheckpoints, request.id);
  if (!before) throw new RunRefusedError('There is no checkpoint from before this request, so its changes cannot be shown.');
  const next = range === 'request' ? messages.slice(index + 1).find((candidate) => candidate.role === 'user') : undefined;
  const after = next ? checkpointOf(runCheckpoints, next.id) : undefined;
  return { request, beforeId: before.id, afterId: after?.id ?? null };
}

/** The latest request of the conversation, or null when there is none. */
export async function latestRequest(conversation: Pick<ConversationStore, 'load'>): Promise<Message | null> {
  const { messages } = await conversation.load();
  return messages.findLast((message) => message.role === 'user') ?? null;
}

function checkpointOf(checkpoints: readonly CheckpointInfo[], messageId: string): CheckpointInfo | undefined {
  return checkpoints.findLast((info) => info.tag.messageId === messageId);
}
