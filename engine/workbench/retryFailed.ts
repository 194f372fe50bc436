import type { UnsequencedEvent } from '../contract/index.js';
import { maxRetryReasonChars, readRunRecord, recordOf, writeRunRecord, type RunRecord } from '../rpi/runRecord.js';
import { markItem, readRpiState } from '../rpi/rpiState.js';
import type { ConversationStore } from '../store/conversation.js';
import { RunRefusedError } from '../contract/runRefusedError.js';

export interface RetryDeps {
  stateDir: string;
  conversation: ConversationStore;
  bus: { emit(event: UnsequencedEvent): unknown };
}

/**
 * Readies "retry failed steps" of the latest request: each `[!]` item goes back to pending (done items are
 * never touched) with its earlier failure reason kept in the run record for its next attempt, and the
 * request's summary is taken back (a new one follows). Returns the record the run resumes from.
 */
export async function prepareRetry({ conversation, stateDir, bus }: RetryDeps): Promise<RunRecord> {
  const { messages } = await conversation.load();
  const at = messages.findLastIndex((message) => message.role === 'user');
  const request = messages[at];
  if (!request) throw new RunRefusedError('Nothing to retry: this folder has no request yet.');
  const record = await readRunRecord(stateDir);
  const failed = (await readRpiState(stateDir)).items.filter((item) => item.status === 'failed');
  if (failed.length === 0 || (record !== null && record.messageId !== request.id)) {
    throw new RunRefusedError('Nothing to retry: the latest request has no failed steps.');
  }
  const answer = messages.slice(at + 1).find((message) => message.role === 'assistant');
  if (answer) {
    await conversation.truncateAt(answer.id);
    bus.emit({ type: 'conversation-reset', runId: null, messages: messages.slice(0, messages.indexOf(answer)) });
  }
  for (const item of failed) await markItem(stateDir, item.index, 'pending');
  const retryReasons = Object.fromEntries(failed.map((item) => [String(item.index), (item.failure ?? 'it failed without a reason').slice(0, maxRetryReasonChars)]));
  const next: RunRecord = { ...(record ?? recordOf(request)), retryReasons };
  await writeRunRecord(stateDir, next);
  return next;
}
