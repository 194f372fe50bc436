import { mkdir } from 'node:fs/promises';
import { z } from 'zod';
import { contextItemsSchema, type Message } from '../contract/index.js';
import { writeFileAtomic } from '../files/atomicWrite.js';
import { readStateText } from '../store/stateFile.js';
import { rpiPaths } from './rpiState.js';

/** A retried item's earlier failure reason is kept to this length (a hand-edited plan may hold a longer one). */
export const maxRetryReasonChars = 2000;

/** What a stopped run needs to go on: the request it answers and when it began (for the changed-files list). */
export const runRecordSchema = z.object({
  messageId: z.string(),
  request: z.string(),
  startedAt: z.number(),
  /** The items attached to the request, as its message stores them; resume and retry give them again. */
  context: contextItemsSchema.optional(),
  /**
   * Set by "retry failed steps": why each retried item (by index) failed before, given to its next
   * attempt. A hint for the model, nothing more; a hand-edited one grants nothing.
   */
  retryReasons: z.record(z.string().regex(/^\d+$/), z.string().max(maxRetryReasonChars)).optional(),
});
export type RunRecord = z.infer<typeof runRecordSchema>;

/** What a request's run starts from when rpi/ holds no record of it: the message itself, with its items. */
export function recordOf(message: Message): RunRecord {
  return { messageId: message.id, request: message.text, startedAt: message.ts, ...(message.context ? { context: message.context } : {}) };
}

const runFile = (stateDir: string) => `${rpiPaths(stateDir).dir}/run.json`;

/** Written when a request starts a run; cleared with the rest of rpi/. */
export async function writeRunRecord(stateDir: string, record: RunRecord): Promise<void> {
  await mkdir(rpiPaths(stateDir).dir, { recursive: true });
  await writeFileAtomic(runFile(stateDir), `${JSON.stringify(record)}\n`);
}

/** The record of the run in rpi/, or null when there is none or it cannot be read. */
export async function readRunRecord(stateDir: string): Promise<RunRecord | null> {
  const record = await readRunRecordOrDamage(stateDir);
  return record === 'unreadable' ? null : record;
}

/** The run's record; null when there is none, 'unreadable' when run.json is there but holds no record (emptied, cut, edited). */
export async function readRunRecordOrDamage(stateDir: string): Promise<RunRecord | null | 'unreadable'> {
  const text = await readStateText(runFile(stateDir));
  if (text === null) return null;
  try {
    return runRecordSchema.parse(JSON.parse(text));
  } catch {
    return 'unreadable';
  }
}
