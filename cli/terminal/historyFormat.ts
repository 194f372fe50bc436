import type { Message } from '../../engine/contract/index.js';
import { oneLine } from './units.js';
import { terminalJson, visibleLine } from './visibleText.js';

const firstLineWidth = 100;

/** A message's time in the local time zone: "2025-03-14 09:26:53". */
export function localTime(ts: number): string {
  const date = new Date(ts);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** The first non-empty line of a message, cut to fit one row. */
export function firstLine(text: string): string {
  return oneLine(text.split('\n').find((line) => line.trim() !== '') ?? '', firstLineWidth);
}

/** The conversation as aligned columns under a header: id, role, local time, first line. */
export function historyTable(messages: readonly Message[]): string {
  const rows = [['ID', 'ROLE', 'TIME', 'MESSAGE'], ...messages.map((message) => [visibleLine(message.id), visibleLine(message.role), localTime(message.ts), firstLine(message.text)])];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows.map((row) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column] ?? 0) : cell)).join('  ').trimEnd()).join('\n');
}

/** `history --json`: one object per line, in order — {id, role, ts (ms since the epoch), time (ISO 8601, UTC), text}; terminal-safe, the same values. */
export function historyJsonLines(messages: readonly Message[]): string {
  return messages.map(({ id, role, ts, text }) => terminalJson({ id, role, ts, time: new Date(ts).toISOString(), text })).join('\n');
}
