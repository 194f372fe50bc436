import type { Message } from '../../../../engine/contract/index.js';
import { usageTotalText } from '../../../../engine/contract/runUsage.js';
import { useWorkbench } from '../../store/StoreContext.js';

/**
 * Under a request: what its model calls used in all, "58,200 tokens in (49,100 cached) · 3,900 out ·
 * $0.031" (live while it runs; tokens only when no price is known). Nothing for a request with no call.
 */
export function RequestSpend({ message }: { message: Message }) {
  // Own entries only: an id such as "constructor" or "__proto__" names no request, whatever the record inherits.
  const total = useWorkbench((state) => (Object.hasOwn(state.requestUsage, message.id) ? state.requestUsage[message.id] : undefined));
  if (!total || total.calls === 0) return null;
  return (
    <p className="request-spend muted" data-testid="request-spend" title="What this request’s model calls used: tokens in (of which read from the prompt cache), out, and the cost">
      {usageTotalText(total)}
    </p>
  );
}
