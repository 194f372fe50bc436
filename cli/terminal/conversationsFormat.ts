import type { ConversationSummary } from '../../engine/contract/index.js';
import { localTime } from './historyFormat.js';
import { terminalJson, visibleLine } from './visibleText.js';

/**
 * The conversations as aligned columns under a header — id, created, last activity, requests, title (a
 * mark on the one running) — the fields `--json` gives. `current`, when given, is marked with `*` in a
 * first column (the chat's conversation). Titles come from the folder, so they pass the escape
 * neutraliser like every text shown.
 */
export function conversationsTable(conversations: readonly ConversationSummary[], { current }: { current?: string } = {}): string {
  const header = ['ID', 'CREATED', 'UPDATED', 'REQUESTS', 'TITLE'];
  const rows = [
    current === undefined ? header : [' ', ...header],
    ...conversations.map((conversation) => [
      ...(current === undefined ? [] : [conversation.id === current ? '*' : ' ']),
      visibleLine(conversation.id),
      localTime(conversation.created),
      localTime(conversation.updated),
      String(conversation.requests),
      `${conversation.running ? '● ' : ''}${visibleLine(conversation.title)}`,
    ]),
  ];
  const last = header.length - (current === undefined ? 1 : 0);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows.map((row) => row.map((cell, column) => (column < last ? cell.padEnd(widths[column] ?? 0) : cell)).join('  ').trimEnd()).join('\n');
}

/** One JSON object per line: {id, title, created, updated, requests, running}. */
export function conversationsJsonLines(conversations: readonly ConversationSummary[]): string {
  return conversations.map(({ id, title, created, updated, requests, running }) => terminalJson({ id, title, created, updated, requests, running })).join('\n');
}
