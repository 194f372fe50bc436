import type { Message, UnsequencedEvent } from '../contract/index.js';
import type { CheckpointStore, RestoreChange } from '../checkpoints/checkpointStore.js';
import { removeKeptRunsExcept } from '../rpi/runArchive.js';
import { clearRpiState } from '../rpi/rpiState.js';
import type { ConversationStore } from '../store/conversation.js';
import { StateFileError } from '../store/stateFile.js';
import { RunRefusedError } from './runRefusedError.js';

export interface RewindDeps {
  stateDir: string;
  conversation: ConversationStore;
  checkpoints: CheckpointStore;
  emit: (event: UnsequencedEvent) => void;
  /** Forgets the recorded events of the run shown, just before the changed history is announced. */
  forgetRun: () => void;
}

interface Target {
  /** The user message the folder and the history go back to before. */
  message: Message;
  checkpointId: string;
}

/** What undoing to before this message would restore, without doing it. */
export async function previewRewind(deps: RewindDeps, messageId: string): Promise<RestoreChange[]> {
  const target = await targetOf(deps, messageId);
  return deps.checkpoints.changesSince(target.checkpointId);
}

/**
 * Puts the folder back as it was before the user message (or, for a summary, before the request it
 * answers), cuts the conversation there and forgets the run's research, plan and recorded events, and
 * the kept runs (runs/) of the requests cut.
 * Files first: if the engine dies half-way, the message is still there and undo can simply be asked again.
 */
export async function rewind(deps: RewindDeps, messageId: string): Promise<{ message: Message; restored: RestoreChange[] }> {
  const target = await targetOf(deps, messageId);
  const restored = await deps.checkpoints.restore(target.checkpointId);
  await deps.conversation.truncateAt(target.message.id);
  await clearRpiState(deps.stateDir);
  const { messages } = await deps.conversation.load();
  // The kept runs of the requests cut from the conversation go with them; a planted runs/ is only reported.
  await removeKeptRunsExcept(deps.stateDir, new Set(messages.map((message) => message.id))).catch((error: unknown) => {
    if (!(error instanceof StateFileError)) throw error;
    deps.emit({ type: 'warning', runId: null, message: `${error.message} The plan history of the requests undone was not removed.` });
  });
  deps.forgetRun();
  deps.emit({ type: 'conversation-reset', runId: null, messages });
  const kept = new Set(messages.map((message) => message.id));
  await deps.checkpoints.collect((info) => kept.has(info.tag.messageId));
  return { message: target.message, restored };
}

async function targetOf(deps: RewindDeps, messageId: string): Promise<Target> {
  const { messages } = await deps.conversation.load();
  const index = messages.findIndex((message) => message.id === messageId);
  if (index < 0) throw new RunRefusedError(`There is no message "${messageId}" in this folder's conversation.`);
  const message = messages.slice(0, index + 1).findLast((candidate) => candidate.role === 'user');
  if (!message) throw new RunRefusedError('This message answers no request, so there is nothing to go back to.');
  const checkpoint = (await deps.checkpoints.list()).find((info) => info.tag.reason === 'run' && info.tag.messageId === message.id);
  if (!checkpoint) throw new RunRefusedError('There is no checkpoint from before this message, so its files cannot be restored.');
  return { message, checkpointId: checkpoint.id };
}
