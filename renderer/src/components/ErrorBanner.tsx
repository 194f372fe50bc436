import { useWorkbench } from '../store/StoreContext.js';

/** The last failed request, until dismissed. A failed run's error is shown in the chat instead. */
export function ErrorBanner() {
  const error = useWorkbench((state) => state.error);
  const dismiss = useWorkbench((state) => state.dismissError);
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert">
      <span>{error}</span>
      <button type="button" className="button-quiet" onClick={dismiss} aria-label="Dismiss error">
        Dismiss
      </button>
    </div>
  );
}
