import type { PlanItem, PlanItemStatus } from '../contract/index.js';

/** DESIGN §3: one plan item per line; numbers are labels, file order is the order of work. */
export const planItemPattern = /^- \[([ x!])\]\s*(\d+)\.\s*(.+)$/;
const newItemPattern = /^- \[ \]\s*\d+\.\s*.+$/;
const originalCountPattern = /<!--\s*original_count:\s*(\d+)\s*-->/;
const failureSuffixPattern = /\s*\[Failed: (.*)\]\s*$/;
const labelSeparatorPattern = /\s+[—–-]\s+/;
const titlePattern = /^#\s/;
/** `Check: \`npm test -- ledger\`` at the end of a description, after a dash, a full stop, a semicolon or a space. */
const checkPattern = /(?:^|\s)Check:\s*`([^`]+)`[\s.]*$/i;
const itemsHeadingPattern = /^##\s+Items\s*$/i;

/** A plan may grow to this many times its original item count through items the model adds while implementing. */
export const maxPlanInflation = 2;
const maxFailureReasonLength = 300;

const statusOf: Record<string, PlanItemStatus> = { ' ': 'pending', x: 'done', '!': 'failed' };
const markOf: Record<PlanItemStatus, string> = { pending: ' ', done: 'x', failed: '!' };

export interface ParsedPlan {
  items: PlanItem[];
  /** Item count when the plan was written; null when missing or unreadable, which means "no cap". */
  originalCount: number | null;
}

export interface AppendedPlanItems {
  text: string;
  appended: string[];
  dropped: string[];
  /** Says how many items were dropped and why; absent when none were. */
  warning?: string;
}

interface Line {
  content: string;
  ending: string;
}

/**
 * A copy of `text` that owns its characters. A slice of a string (what a regex group or `slice` gives) may
 * keep the whole string it came from alive: an item's label held by an event would hold the whole plan
 * text of that moment, one more copy for every item of a long run.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

export function parsePlan(text: string): ParsedPlan {
  const items = splitLines(text).flatMap(({ content }) => {
    const match = planItemPattern.exec(content.trimEnd());
    if (!match) return [];
    const [, mark = ' ', number = '0', rest = ''] = match;
    const { label, description, failure } = splitText(rest);
    const check = checkOfDescription(description);
    return [
      {
        number: Number(number),
        label: detached(label),
        description: detached(description),
        ...(check === null ? {} : { check: detached(check) }),
        ...(failure === undefined ? {} : { failure: detached(failure) }),
        status: statusOf[mark] ?? 'pending',
        rawLine: detached(content),
      },
    ];
  });
  const count = originalCountPattern.exec(text)?.[1];
  return { items: items.map((item, index) => ({ index, ...item })), originalCount: count === undefined ? null : Number(count) };
}

/**
 * Rewrites only the checkbox of the index-th item (0-based, file order); a failure adds `[Failed: reason]`,
 * replacing an earlier one, and any other status removes it. Every other byte of the file is kept.
 */
export function markPlanItem(text: string, index: number, status: PlanItemStatus, reason?: string): string {
  const lines = splitLines(text);
  const itemLines = lines.filter((line) => planItemPattern.test(line.content.trimEnd()));
  const line = itemLines[index];
  if (!line) {
    throw new Error(`The plan has no item at index ${index}: it has ${itemLines.length} item(s), counted from 0 in file order.`);
  }
  line.content = markedLine(line.content, status, reason);
  return joinLines(lines);
}

/**
 * Appends new pending items after the last item (or under `## Items`, or at the end), keeping the plan
 * within `original_count × 2` items; the excess is dropped with a warning. No original_count, no cap.
 */
export function appendPlanItems(text: string, newItemLines: readonly string[]): AppendedPlanItems {
  const normalised = newItemLines.map(pendingItemLine);
  const { items, originalCount } = parsePlan(text);
  const cap = originalCount === null ? Infinity : originalCount * maxPlanInflation;
  const room = Math.max(0, cap - items.length);
  const appended = normalised.slice(0, room);
  const dropped = normalised.slice(room);
  const lines = splitLines(text);
  if (appended.length > 0) insertLines(lines, appendAnchor(lines), appended);
  const result = { text: joinLines(lines), appended, dropped };
  if (dropped.length === 0) return result;
  const warning =
    `Dropped ${dropped.length} new plan item(s): a plan may grow to ${maxPlanInflation}× its original ${originalCount} item(s), ` +
    `${cap} in all, and it had ${items.length}.`;
  return { ...result, warning };
}

/** The new pending items a model proposes in its final text: lines of the form `- [ ] N. Label — description`. */
export function extractNewPlanItems(modelText: string): string[] {
  return modelText
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => newItemPattern.test(line));
}

/**
 * The plan with every item shown pending and without its failure reason: the plan as approved, whatever
 * has happened to its items since. Implement gives it in the part of a request that stays the same from
 * item to item, and the items' outcomes apart, after it.
 */
export function withoutOutcomes(planText: string): string {
  const lines = splitLines(planText);
  for (const line of lines) if (planItemPattern.test(line.content.trimEnd())) line.content = markedLine(line.content, 'pending', undefined);
  return joinLines(lines);
}

/** The plan without its `original_count` line, so that writing it again records its new item count. */
export function withoutOriginalCount(planText: string): string {
  return joinLines(splitLines(planText).filter((line) => !originalCountPattern.test(line.content)));
}

/** Records the plan's item count as `<!-- original_count: N -->` under its title, unless a readable one is there. */
export function withOriginalCount(planText: string): string {
  const { items, originalCount } = parsePlan(planText);
  if (originalCount !== null) return planText;
  const lines = splitLines(planText);
  insertLines(lines, lines.findIndex((line) => titlePattern.test(line.content)), [`<!-- original_count: ${items.length} -->`]);
  return joinLines(lines);
}

/** The command a description ends with (`… — Check: \`cmd\``), or null when it names none. */
export function checkOfDescription(description: string): string | null {
  const command = checkPattern.exec(description)?.[1]?.trim();
  return command ? command : null;
}

/** The description without the check it ends with. */
export function withoutCheck(description: string): string {
  return description.replace(checkPattern, '').replace(/\s*[—–-]\s*$/, '').trim();
}

function splitText(rest: string): Pick<PlanItem, 'label' | 'description' | 'failure'> {
  const failure = failureSuffixPattern.exec(rest);
  const hasFailure = failure !== null && failure.index > 0;
  const body = hasFailure ? rest.slice(0, failure.index) : rest;
  const separator = labelSeparatorPattern.exec(body);
  const label = (separator ? body.slice(0, separator.index) : body).trim();
  const description = separator ? body.slice(separator.index + separator[0].length).trim() : '';
  return hasFailure ? { label, description, failure: failure[1] ?? '' } : { label, description };
}

function markedLine(line: string, status: PlanItemStatus, reason: string | undefined): string {
  const marked = `${line.slice(0, 3)}${markOf[status]}${line.slice(4)}`;
  const suffix = failureSuffixPattern.exec(marked);
  const kept = suffix && planItemPattern.test(marked.slice(0, suffix.index).trimEnd()) ? marked.slice(0, suffix.index) : marked;
  return status === 'failed' ? `${kept.trimEnd()} [Failed: ${oneLineReason(reason)}]` : kept;
}

function oneLineReason(reason: string | undefined): string {
  const text = (reason ?? '').replace(/\s+/g, ' ').trim() || 'no reason given';
  return text.length > maxFailureReasonLength ? `${text.slice(0, maxFailureReasonLength - 1).trimEnd()}…` : text;
}

function pendingItemLine(line: string): string {
  const match = planItemPattern.exec(line.trim());
  if (!match) throw new Error(`"${line}" is not a plan item line; expected "- [ ] N. Label — description".`);
  return `- [ ] ${match[2]}. ${match[3]?.trim()}`;
}

/** Index of the line new items go after: the last item, else an `## Items` heading, else the last non-empty line. */
function appendAnchor(lines: Line[]): number {
  const lastItem = lines.findLastIndex((line) => planItemPattern.test(line.content.trimEnd()));
  if (lastItem !== -1) return lastItem;
  const heading = lines.findIndex((line) => itemsHeadingPattern.test(line.content.trim()));
  if (heading !== -1) return heading;
  const last = lines.length - 1;
  return lines[last]?.content === '' ? last - 1 : last;
}

function splitLines(text: string): Line[] {
  const parts = text.split(/(\r?\n)/);
  const lines: Line[] = [];
  for (let i = 0; i < parts.length; i += 2) lines.push({ content: parts[i] ?? '', ending: parts[i + 1] ?? '' });
  return lines;
}

const joinLines = (lines: Line[]): string => lines.map((line) => line.content + line.ending).join('');

/** Inserts after line `after` (-1: at the top) with the file's own line ending, keeping a missing final newline missing. */
function insertLines(lines: Line[], after: number, contents: string[]): void {
  const eol = lines.find((line) => line.ending !== '')?.ending ?? '\n';
  const added = contents.map((content) => ({ content, ending: eol }));
  const anchor = lines[after];
  const lastAdded = added[added.length - 1];
  if (anchor && anchor.ending === '' && lastAdded) {
    anchor.ending = eol;
    lastAdded.ending = '';
  }
  lines.splice(after + 1, 0, ...added);
}
