import type { PlanItem, PlanItemStatus } from '../contract/index.js';

/** DESIGN §3: one plan item per line; numbers are labels, file order is the order of work. */
export const planItemPattern = /^- \[([ x!])\]\s*(\d+)\.\s*(.+)$/;
const originalCountPattern = /<!--\s*original_count:\s*(\d+)\s*-->/;
const failureSuffixPattern = /\s*\[Failed: (.*)\]\s*$/;
const labelSeparatorPattern = /\s+[—–-]\s+/;

const statusOf: Record<string, PlanItemStatus> = { ' ': 'pending', x: 'done', '!': 'failed' };

export interface ParsedPlan {
  items: PlanItem[];
  /** Item count when the plan was written; null when missing or unreadable, which means "no cap". */
  originalCount: number | null;
}

export function parsePlan(text: string): ParsedPlan {
  const items: PlanItem[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = planItemPattern.exec(line.trimEnd());
    if (!match) continue;
    const [, mark = ' ', number = '0', rest = ''] = match;
    items.push({ index: items.length, number: Number(number), ...splitText(rest), status: statusOf[mark] ?? 'pending' });
  }
  const count = originalCountPattern.exec(text)?.[1];
  return { items, originalCount: count === undefined ? null : Number(count) };
}

function splitText(rest: string): Pick<PlanItem, 'label' | 'description' | 'failure'> {
  const failure = failureSuffixPattern.exec(rest);
  const body = failure ? rest.slice(0, failure.index) : rest;
  const separator = labelSeparatorPattern.exec(body);
  const label = (separator ? body.slice(0, separator.index) : body).trim();
  const description = separator ? body.slice(separator.index + separator[0].length).trim() : '';
  return failure ? { label, description, failure: failure[1] ?? '' } : { label, description };
}
