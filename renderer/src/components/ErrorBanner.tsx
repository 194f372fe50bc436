import { useWorkbench } from '../store/StoreContext.js';
import { useConversationTitle } from './conversations/useConversationTitle.js';

/** A start refused for another conversation's run, in the words of the list (its title rather than its id). */
function busyElsewhere(title: string): string {
  return `“${title}” is running in this folder, and a folder runs one request at a time, so nothing was sent: switch to it to follow it, or wait for it to finish (or cancel it).`;
}

/**
 * The last failed request, until dismissed. A failed run's error is shown in the chat instead. A start
 * refused because another conversation's run is going offers to switch to that conversation.
 */
export function ErrorBanner() {
  const error = useWorkbench((state) => state.error);
  const runningIn = useWorkbench((state) => state.errorRunningIn);
  const dismiss = useWorkbench((state) => state.dismissError);
  const switchConversation = useWorkbench((state) => state.switchConversation);
  const runningTitle = useConversationTitle(runningIn);
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert">
      <span>{runningIn ? busyElsewhere(runningTitle) : error}</span>
      <span className="row">
        {runningIn && (
          <button type="button" onClick={() => void switchConversation(runningIn)} data-testid="switch-to-running">
            Switch to “{runningTitle}”
          </button>
        )}
        <button type="button" className="button-quiet" onClick={dismiss} aria-label="Dismiss error">
          Dismiss
        </button>
      </span>
    </div>
  );
}
