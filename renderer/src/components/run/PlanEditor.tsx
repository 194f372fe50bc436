import { useId, useState } from 'react';

interface PlanEditorProps {
  initial: string;
  busy: boolean;
  onApprove: (plan: string) => void;
  onCancel: () => void;
}

/** plan.md in a textarea; the engine checks that the edited plan still has steps. */
export function PlanEditor({ initial, busy, onApprove, onCancel }: PlanEditorProps) {
  const id = useId();
  const [text, setText] = useState(initial);
  return (
    <form
      className="plan-review-editor"
      onSubmit={(event) => {
        event.preventDefault();
        onApprove(text);
      }}
    >
      <label htmlFor={id}>Plan (one “- [ ] N. Label — what to do” line per step)</label>
      <textarea id={id} className="run-textarea" rows={Math.min(20, text.split('\n').length + 2)} spellCheck={false} value={text} onChange={(event) => setText(event.target.value)} />
      <div className="run-card-actions">
        <button type="submit" className="button-primary" disabled={busy || text.trim() === ''}>
          Approve edited plan
        </button>
        <button type="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
