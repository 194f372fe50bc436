import { describePlanTally, usageTotalText, type Message, type PhaseModelNames, type RunSummary, type UsageTotal } from '../../engine/contract/index.js';
import { contextItemLabel } from '../../engine/contract/contextItemLabel.js';
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

/** What a request's run kept, by message id (the snapshot's `runs`). */
type KeptRuns = Readonly<Record<string, RunSummary>>;

/** What each request's model calls used in all, by message id (the snapshot's `usage.requests`). */
type RequestUsage = Readonly<Record<string, UsageTotal>>;

/** A request's first line, then its plan's outcome in brackets when its run kept a plan: "Add a greeting  [Plan: 1/2 done, 1 failed]". */
function messageCell(message: Message, runs: KeptRuns): string {
  const plan = message.role === 'user' ? ownEntry(runs, message.id)?.plan : null;
  return plan ? `${firstLine(message.text)}  [${describePlanTally(plan)}]` : firstLine(message.text);
}

/**
 * The conversation as aligned columns under a header: id, role, local time, first line (and a request's
 * plan outcome); under a request, its attached items and what its model calls used.
 */
export function historyTable(messages: readonly Message[], runs: KeptRuns = {}, usage: RequestUsage = {}): string {
  const rows = [['ID', 'ROLE', 'TIME', 'MESSAGE'], ...messages.map((message) => [visibleLine(message.id), visibleLine(message.role), localTime(message.ts), messageCell(message, runs)])];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  const indent = widths.reduce((sum, width) => sum + width + 2, 0);
  return rows
    .map((row, index) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column] ?? 0) : cell)).join('  ').trimEnd() + attachedLine(messages[index - 1], indent) + usageLine(messages[index - 1], usage, indent))
    .join('\n');
}

/** A request's usage in all, on a line of its own: "used: 58,200 tokens in (49,100 cached) · 3,900 out · $0.031"; nothing without any. */
function usageLine(message: Message | undefined, usage: RequestUsage, indent: number): string {
  const total = message?.role === 'user' ? ownEntry(usage, message.id) : undefined;
  return total ? `\n${' '.repeat(indent)}used: ${usageTotalText(total)}` : '';
}

/** A request's attached items, on a line of their own under its first line; nothing when it has none. */
function attachedLine(message: Message | undefined, indent: number): string {
  if (!message?.context?.length) return '';
  return `\n${' '.repeat(indent)}${oneLine(`attached: ${message.context.map((item) => contextItemLabel(item)).join(', ')}`, firstLineWidth)}`;
}

/**
 * `history --json`: one object per line, in order — {id, role, ts (ms since the epoch), time (ISO 8601,
 * UTC), text}, and for a request `plan`: {done, failed, total} of its kept plan, or null, and `usage`:
 * {promptTokens, cachedTokens, cacheWriteTokens, completionTokens, reasoningTokens, costUsd,
 * unpricedSteps} of its model calls (costUsd null when no price is known, a floor when unpricedSteps > 0),
 * or null, `checks`: {passed, failed, denied, none} of its plan's checks, or null without a plan, and
 * `models`: {research, plan, implement, summary}, the model that ran each phase (null for a phase that
 * made no call); terminal-safe, the same values.
 */
export function historyJsonLines(messages: readonly Message[], runs: KeptRuns = {}, usage: RequestUsage = {}): string {
  return messages
    .map(({ id, role, ts, text, context }) =>
      terminalJson({
        id,
        role,
        ts,
        time: new Date(ts).toISOString(),
        text,
        ...(context ? { context } : {}),
        ...(role === 'user'
          ? { plan: ownEntry(runs, id)?.plan ?? null, usage: usageJson(ownEntry(usage, id)), checks: ownEntry(runs, id)?.checks ?? null, models: modelsJson(ownEntry(usage, id)) }
          : {}),
      }),
    )
    .join('\n');
}

function usageJson(total: UsageTotal | undefined) {
  if (!total) return null;
  const { promptTokens, cachedTokens, cacheWriteTokens, completionTokens, reasoningTokens, costUsd, unpricedSteps } = total;
  return { promptTokens, cachedTokens, cacheWriteTokens, completionTokens, reasoningTokens, costUsd, unpricedSteps };
}

/** Which model ran each phase of a request; every phase null when its run made no call (or kept no usage). */
function modelsJson(total: UsageTotal | undefined): PhaseModelNames {
  return total?.models ?? { research: null, plan: null, implement: null, summary: null };
}

/** A request's entry: only the record's own entries, never what every object inherits (`constructor`). */
function ownEntry<T>(record: Readonly<Record<string, T>>, id: string): T | undefined {
  return Object.hasOwn(record, id) ? record[id] : undefined;
}
