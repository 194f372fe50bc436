import { contextItemsSchema, type ContextItem, type Message, type UnsequencedEvent } from '../contract/index.js';
import type { CheckpointStore } from '../checkpoints/checkpointStore.js';
import { clearRpiState } from '../rpi/rpiState.js';
import { readRunRecordOrDamage, recordOf, writeRunRecord, type RunRecord } from '../rpi/runRecord.js';
import { shownStateDir } from '../store/stateDirNames.js';
import { unansweredRequest, type ConversationStore } from '../store/conversation.js';
import { newMessage } from './newMessage.js';
import { keepCurrentRun } from './runHistory.js';
import { RunRefusedError } from '../contract/runRefusedError.js';

export interface RequestDeps {
  stateDir: string;
  conversation: ConversationStore;
  checkpoints: CheckpointStore;
  bus: { emit(event: UnsequencedEvent): unknown };
}

/**
 * Readies a new request: the earlier request's research and plan are kept in runs/, the folder is
 * checkpointed (what undo and regenerate go back to), the message is appended and announced, and rpi/
 * starts over with the request's record. Returns the record the run starts from.
 */
export async function prepareNewRequest(deps: RequestDeps, text: string, context: readonly ContextItem[]): Promise<RunRecord> {
  const message: Message = { ...newMessage('user', text), ...(context.length > 0 ? { context: [...context] } : {}) };
  // The earlier request's research and plan go to runs/ before anything else, so rpi/ can be cleared below.
  await keepCurrentRun(deps.stateDir);
  await deps.checkpoints.snapshot({ reason: 'run', messageId: message.id });
  await deps.conversation.append(message);
  deps.bus.emit({ type: 'message-added', runId: null, message });
  await clearRpiState(deps.stateDir);
  const record = recordOf(message);
  await writeRunRecord(deps.stateDir, record);
  return record;
}

/** Readies going on with the request whose run stopped (cancel, crash, failure): the record its run resumes from. */
export async function prepareResume({ stateDir, conversation }: Pick<RequestDeps, 'stateDir' | 'conversation'>): Promise<RunRecord> {
  const { messages } = await conversation.load();
  if (messages.length === 0) throw new RunRefusedError('Nothing to resume: this folder has no request yet.');
  const last = unansweredRequest(messages);
  if (!last) throw new RunRefusedError('Nothing to resume: the last request was answered. Send a new message instead.');
  const record = await readRunRecordOrDamage(stateDir);
  if (record === 'unreadable') {
    // The engine writes it whole (atomically): damage is from outside, and going on would redo done steps.
    throw new RunRefusedError(
      `Cannot resume: ${shownStateDir(stateDir)}/rpi/run.json, the record of the stopped run, is unreadable (empty or not a run record), so its research and plan cannot be tied to this request. Delete that file to do the request again from Research.`,
    );
  }
  if (record?.messageId === last.id) return record;
  // rpi/ still holds an earlier request's run (the engine stopped before clearing it): keep it, start afresh.
  if (record) await keepCurrentRun(stateDir);
  // Research or a plan without a record says nothing of its request (an earlier engine's clear, cut short
  // after removing run.json, left it): never credited to this one, which starts from its research.
  await clearRpiState(stateDir);
  // Recorded, so rpi/ says which request it belongs to (the plan history reads it).
  const fresh = recordOf(last);
  await writeRunRecord(stateDir, fresh);
  return fresh;
}

/** The items to attach, checked as the contract bounds them (a host may call send without the request's validation). */
export function attachedItems(items: readonly ContextItem[] | undefined): ContextItem[] {
  const checked = contextItemsSchema.safeParse(items ?? []);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const [index, ...field] = issue?.path ?? [];
  const where = typeof index === 'number' ? `item ${index + 1}: ${field.length ? `${field.map(String).join('.')} ` : ''}` : '';
  throw new RunRefusedError(`The attached items are not valid: ${where}${issue?.message ?? 'unreadable'}.`);
}
