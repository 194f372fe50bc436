import type { ChatMessage } from '../../llm/llmTypes.js';
import { oneLine, textOf, type HistoryEntry } from './historyEntry.js';
import type { RequestSize } from './requestSize.js';

export interface CondenseStep {
  entries: HistoryEntry[];
  /** The first entry of the loop's own turns: those before it (system prompt, the phase's request) stay. */
  from: number;
  /** The latest turn starts here and stays. */
  before: number;
  size: RequestSize;
  tokens: number;
}

/** Older assistant texts keep their first line only; tool calls stay as they are, so every call keeps its result. */
export async function shortenOlderTexts({ entries, from, before, size, tokens }: CondenseStep): Promise<{ tokens: number; count: number }> {
  let count = 0;
  for (let index = from; index < before; index += 1) {
    const entry = entries[index];
    if (!entry || entry.message.role !== 'assistant' || entry.noteLines) continue;
    const text = textOf(entry.message).trim();
    if (!text.includes('\n')) continue;
    const message: ChatMessage = { ...entry.message, content: `${oneLine(text, 300)} […]` };
    tokens += (await size.ofMessage(message)) - (await size.ofMessage(entry.message));
    entries[index] = { ...entry, message };
    count += 1;
  }
  return { tokens, count };
}

/**
 * Every older turn (an assistant message with its tool calls and their results) becomes one line of a
 * single note, in their place. Whole turns go, so no tool call is left without its result.
 */
export async function collapseOlderTurns({
  entries,
  from,
  before,
  size,
  tokens,
  maxLines,
}: CondenseStep & { maxLines: number }): Promise<{ tokens: number; count: number }> {
  const block = entries.slice(from, before);
  const turns = block.filter((entry) => entry.message.role === 'assistant' && !entry.noteLines).length;
  if (turns === 0) return { tokens, count: 0 };
  // The note keeps the latest lines; older ones are counted, not listed.
  const lines = block.flatMap(noteLinesOf).filter((line) => !line.startsWith('- ('));
  const left = lines.length - (maxLines - 1);
  const kept = left > 0 ? [`- (${left} earlier ${left === 1 ? 'call' : 'calls'} left out)`, ...lines.slice(left)] : lines;
  const note: HistoryEntry = { message: { role: 'assistant', content: noteText(kept) }, noteLines: kept };
  let removed = 0;
  for (const entry of block) removed += await size.ofMessage(entry.message);
  entries.splice(from, block.length, note);
  return { tokens: tokens - removed + (await size.ofMessage(note.message)), count: turns };
}

function noteText(lines: readonly string[]): string {
  return (
    'Notes on my earlier turns in this step, condensed to save room (recall_tool_result {"id": <id>} reads any result again):\n' +
    lines.join('\n')
  );
}

function noteLinesOf(entry: HistoryEntry): string[] {
  if (entry.noteLines) return entry.noteLines;
  const { result, message } = entry;
  if (result) {
    const aside = result.state === 'set-aside' ? ' (set aside)' : '';
    return [`- ${result.tool} ${oneLine(result.args, 120)} → result #${result.logId}${aside}: ${oneLine(result.text, 120)}`];
  }
  const text = textOf(message).trim();
  if (text === '') return [];
  return [message.role === 'assistant' ? `- I wrote: ${oneLine(text, 160)}` : `- I was told: ${oneLine(text, 160)}`];
}
