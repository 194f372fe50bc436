import type { EventOf } from '../../engine/contract/index.js';

const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
const tokens = (count: number) => count.toLocaleString('en-US');

/**
 * One line for a request fitted to the context budget:
 * `  ⋯ context: 12 older results set aside (request ≈5,900 tokens, budget 6,144 of 8,192); the model can recall them`.
 */
export function formatContextLine(event: EventOf<'context-trimmed'>): string {
  const parts = [
    event.setAside > 0 && counted(event.setAside, 'older result set aside', 'older results set aside'),
    event.condensed > 0 && counted(event.condensed, 'earlier turn condensed', 'earlier turns condensed'),
    event.cut > 0 && counted(event.cut, 'new result cut to fit', 'new results cut to fit'),
  ].filter((part): part is string => part !== false);
  const refused = event.afterRefusal ? 'the server found the request too long, so the budget shrank and the turn is asked again' : '';
  const what = [refused, parts.join(', ')].filter(Boolean).join('; ');
  const size = `request ≈${tokens(event.promptTokens)} tokens, budget ${tokens(event.budget)} of ${tokens(event.contextWindow)}`;
  return `  ⋯ context: ${what} (${size})${parts.length > 0 ? '; the model can recall them' : ''}`;
}
