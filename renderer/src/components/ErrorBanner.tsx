import { useWorkbench } from '../store/StoreContext.js';

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
