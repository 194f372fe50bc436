import { formatCount, type HistoryEntry } from './historyEntry.js';
import type { RequestSize } from './requestSize.js';

/** A result this small costs about what its stub would: it stays. */
const worthSettingAside = 80;

/**
 * What the model reads in place of a result set aside. Its words never change once written, so every
 * later request repeats the same prefix (providers cache prompts by prefix).
 */
export function setAsideStub(tool: string, logId: number, tokens: number): string {
  return `[Set aside to save room: ${tool} result #${logId}, ${formatCount(tokens)} tokens. Call recall_tool_result {"id": ${logId}} to read it again.]`;
}

export interface SetAsideStep {
  entries: HistoryEntry[];
  /** Entries from this index on (the latest turn) stay as they are. */
  before: number;
  size: RequestSize;
  /** The request's size now, and the size to get down to. */
  tokens: number;
  target: number;
}

/** Sets aside the oldest results first until the request is down to `target`; the request's new size and how many. */
export async function setAsideOldest({ entries, before, size, tokens, target }: SetAsideStep): Promise<{ tokens: number; count: number }> {
  let count = 0;
  for (let index = 0; index < before && tokens > target; index += 1) {
    const entry = entries[index];
    const result = entry?.result;
    if (!entry || !result || result.state === 'set-aside') continue;
    const was = await size.ofMessage(entry.message);
    if (was < worthSettingAside) continue;
    const message = result.render(setAsideStub(result.tool, result.logId, was));
    entries[index] = { ...entry, message, result: { ...result, state: 'set-aside' } };
    tokens += (await size.ofMessage(message)) - was;
    count += 1;
  }
  return { tokens, count };
}
