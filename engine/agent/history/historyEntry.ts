import type { ChatMessage } from '../../llm/llmTypes.js';

/** Where a tool result in the history came from, so it can be set aside or cut and found again by id. */
export interface ResultOrigin {
  tool: string;
  /** The tool-log id recall_tool_result reads it back by. */
  logId: number;
  /** The arguments as the model sent them (JSON text), for the note that condenses old turns. */
  args: string;
  /** Length of the full result in the tool log. */
  fullChars: number;
  /** What the model read when the result arrived (possibly already capped by resultCap). */
  text: string;
  /** The message that carries a text for the model: a tool message, or a text-protocol user message. */
  render: (text: string) => ChatMessage;
  /** Set for a recall_tool_result page that succeeded: the result it pages through, and from where. */
  recalled?: { id: number; offset: number };
}

/** A message of the loop's history, and what the context keeper knows about it. */
export interface HistoryEntry {
  message: ChatMessage;
  result?: ResultOrigin & { state: 'whole' | 'cut' | 'set-aside' };
  /** Set on the note that stands for condensed older turns: its lines, so a later condense adds to them. */
  noteLines?: string[];
}

/** One line, at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function textOf(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

export const formatCount = (count: number) => count.toLocaleString('en-US');
