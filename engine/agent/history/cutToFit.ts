import { contextResultChars } from '../../tools/resultCap.js';
import { minRecallChars } from '../../tools/recallToolResult.js';
import { formatCount, type HistoryEntry, type ResultOrigin } from './historyEntry.js';
import type { RequestSize } from './requestSize.js';

/** Room the cut note itself takes, in tokens (it names the id, the offset and the limit). */
const noteAllowance = 80;
/** Tries to come under the budget; each one keeps a little less, as token counts are not linear in characters. */
const attempts = 6;

export interface CutStep {
  entries: HistoryEntry[];
  /** The latest turn's results are the ones cut; they start at this index. */
  from: number;
  size: RequestSize;
  tokens: number;
  budget: number;
}

/**
 * Cuts the latest turn's results so the request fits the budget: small results stay whole and the rest
 * share the room left. Each keeps its head and says how to read on with recall_tool_result, a page that fits.
 */
export async function cutLatestResults({ entries, from, size, tokens, budget }: CutStep): Promise<{ tokens: number; count: number }> {
  const latest: { index: number; now: number; tokens: number; origin: ResultOrigin }[] = [];
  for (let index = from; index < entries.length; index += 1) {
    const entry = entries[index]!;
    if (!entry.result || entry.result.state === 'set-aside') continue;
    const now = await size.ofMessage(entry.message);
    // A result cut on an earlier try is measured whole again: shares are taken from the whole text.
    const whole = entry.result.state === 'whole' ? now : await size.ofMessage(entry.result.render(entry.result.text));
    latest.push({ index, now, tokens: whole, origin: entry.result });
  }
  if (latest.length === 0) return { tokens, count: 0 };
  const others = tokens - latest.reduce((sum, result) => sum + result.now, 0);
  let count = 0;
  let scale = 1;
  for (let attempt = 0; attempt < attempts && tokens > budget; attempt += 1) {
    const shares = sharesOf(latest.map((result) => result.tokens), Math.floor((budget - others) * scale));
    tokens = others;
    count = 0;
    for (const [position, result] of latest.entries()) {
      const share = shares[position]!;
      const entry = entries[result.index]!;
      if (share >= result.tokens) {
        entries[result.index] = { ...entry, message: result.origin.render(result.origin.text), result: { ...result.origin, state: 'whole' } };
        tokens += result.tokens;
        continue;
      }
      const keep = Math.floor((Math.max(0, share - noteAllowance) * result.origin.text.length) / Math.max(1, result.tokens));
      const message = result.origin.render(cutText(result.origin, keep));
      entries[result.index] = { ...entry, message, result: { ...result.origin, state: 'cut' } };
      tokens += await size.ofMessage(message);
      count += 1;
    }
    scale *= 0.85;
  }
  return { tokens, count };
}

/** Water-filling: results smaller than an equal share keep their size, the others split what remains. */
function sharesOf(sizes: readonly number[], room: number): number[] {
  const order = sizes.map((tokens, position) => ({ tokens, position })).sort((a, b) => a.tokens - b.tokens);
  const shares = new Array<number>(sizes.length).fill(0);
  let remaining = Math.max(0, room);
  for (const [rank, { tokens, position }] of order.entries()) {
    const equal = Math.floor(remaining / (order.length - rank));
    shares[position] = Math.min(tokens, equal);
    remaining -= shares[position];
  }
  return shares;
}

/** The head of a result, and how to read on: from the full result in the tool log, a page at a time. */
export function cutText(origin: ResultOrigin, keep: number): string {
  if (origin.recalled) {
    const headerEnd = origin.text.indexOf('\n');
    const header = origin.text.slice(0, headerEnd);
    const page = origin.text.slice(headerEnd + 1).replace(/\n\[More follows: [^\n]*\]$/, '');
    if (keep >= page.length) return origin.text;
    const body = page.slice(0, keep);
    const { id, offset } = origin.recalled;
    return `${header}\n${body}\n[Cut to fit the context window: ${readOn(id, offset + body.length, body.length)}]`;
  }
  const shown = Math.min(keep, origin.fullChars, contextResultChars);
  const head = origin.text.slice(0, shown);
  return (
    `${head}\n[Cut to fit the context window: showing characters 0–${formatCount(shown)} of ${formatCount(origin.fullChars)}. ` +
    `The full result is tool-log entry ${origin.logId}: ${readOn(origin.logId, shown, shown)}]`
  );
}

function readOn(id: number, offset: number, fitted: number): string {
  const limit = Math.max(minRecallChars, fitted);
  return `call recall_tool_result {"id": ${id}, "offset": ${offset}, "limit": ${limit}} to read on.`;
}
