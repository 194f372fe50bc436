import type { EventOf, PlanItem, RpiState } from '../../../engine/contract/index.js';

/** The result a `check-finished` states, as items and rpi/ keep it. */
function resultOf({ command, source, outcome, exitCode }: EventOf<'check-finished'>) {
  return { command, source, outcome, exitCode };
}

/** The items with an item's check result as `check-finished` told it (a fix round's result replaces the one before). */
export function itemsWithCheck(items: readonly PlanItem[], event: EventOf<'check-finished'>): PlanItem[] {
  return items.map((item) => (item.index === event.index ? { ...item, checkResult: resultOf(event) } : item));
}

/** rpi/ as the page knows it, with the check result: an item's, or the folder's over the whole change (index null). */
export function rpiWithCheck(rpi: RpiState, event: EventOf<'check-finished'>): RpiState {
  return event.index === null ? { ...rpi, finalCheck: resultOf(event) } : { ...rpi, items: itemsWithCheck(rpi.items, event) };
}
