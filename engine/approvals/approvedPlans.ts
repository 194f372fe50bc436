import { createHash } from 'node:crypto';
import type { PlanItem } from '../contract/index.js';

/**
 * Plans the user approved at the review gate, held in this process only. The plan's file in
 * `.workbench/` is project-folder data a cloned repository can plant, so no flag there can say "approved":
 * an approval is bound to the request and to exactly the items approved (their words, in order, not
 * their checkboxes), and a plan that nobody approved in this process is reviewed again.
 */
export class ApprovedPlans {
  private readonly byRequest = new Map<string, string>();

  isApproved(messageId: string, items: readonly PlanItem[]): boolean {
    return this.byRequest.get(messageId) === digestOf(items);
  }

  approve(messageId: string, items: readonly PlanItem[]): void {
    this.byRequest.set(messageId, digestOf(items));
  }

  /** The engine itself appended items the model proposed: an approved plan stays approved with them. */
  extend(messageId: string, before: readonly PlanItem[], after: readonly PlanItem[]): void {
    if (this.isApproved(messageId, before)) this.approve(messageId, after);
  }

  forget(messageId: string): void {
    this.byRequest.delete(messageId);
  }
}

function digestOf(items: readonly PlanItem[]): string {
  const hash = createHash('sha256');
  for (const item of items) hash.update(`${item.number}\u0000${item.label}\u0000${item.description}\u0001`);
  return hash.digest('hex');
}
