import { useWorkbench } from '../../store/StoreContext.js';

const none: string[] = [];

/** Which items the user attached to the request (files, folders, notes) the run's phases were given. */
export function AttachedItems() {
  const items = useWorkbench((state) => state.run?.attachedItems ?? none);
  if (items.length === 0) return null;
  return (
    <p className="run-note" data-testid="attached-items" title="Given to Research, Plan and every Implement step as what you attached to the request">
      Attached: {items.join(', ')}
    </p>
  );
}
