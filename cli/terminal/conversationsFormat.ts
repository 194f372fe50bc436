import type { ConversationSummary } from '../../engine/contract/index.js';
import { localTime } from './historyFormat.js';
import { terminalJson, visibleLine } from './visibleText.js';

/**
 * The conversations as aligned columns under a header: id, last activity, requests, title (a mark on the
 * one running). Titles come from the folder, so they pass the escape neutraliser like every text shown.
 */
export function conversationsTable(conversations: readonly ConversationSummary[]): string {
  const rows = [
    ['ID', 'UPDATED', 'REQUESTS', 'TITLE'],
    ...conversations.map((conversation) => [
      visibleLine(conversation.id),
      localTime(conversation.updated),
      String(conversation.requests),
      `${conversation.running ? '● ' : ''}${visibleLine(conversation.title)}`,
    ]),
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows.map((row) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column] ?? 0) : cell)).join('  ').trimEnd()).join('\n');
}

/** One JSON object per line: {id, title, created, updated, requests, running}. */
export function conversationsJsonLines(conversations: readonly ConversationSummary[]): string {
  return conversations.map(({ id, title, created, updated, requests, running }) => terminalJson({ id, title, created, updated, requests, running })).join('\n');
}
