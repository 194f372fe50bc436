import { useId, useState, type FormEvent } from 'react';

type Parsed = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

function parseArguments(text: string): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `This is not valid JSON (${error instanceof Error ? error.message : String(error)}). Fix it, or cancel the edit.` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'The arguments must be a JSON object, like {"path": "notes.txt"}.' };
  }
  return { ok: true, args: value as Record<string, unknown> };
}

interface ArgumentsEditorProps {
  initial: Record<string, unknown>;
  busy: boolean;
  onApprove: (args: Record<string, unknown>) => void;
  onCancel: () => void;
  /** Told the arguments each time the text is a valid JSON object, so what they would do can be shown before approving. */
  onDraft?: (args: Record<string, unknown>) => void;
}

/** Edits a request's arguments as JSON, checked here before they go; the engine checks them against the tool. */
export function ArgumentsEditor({ initial, busy, onApprove, onCancel, onDraft }: ArgumentsEditorProps) {
  const id = useId();
  const [text, setText] = useState(() => JSON.stringify(initial, null, 2));
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseArguments(text);
    if (parsed.ok) onApprove(parsed.args);
    setError(parsed.ok ? null : parsed.error);
  };

  return (
    <form className="approval-editor" onSubmit={submit}>
      <label htmlFor={`${id}-args`}>Arguments (JSON)</label>
      <textarea
        id={`${id}-args`}
        className="run-textarea"
        rows={Math.min(16, text.split('\n').length + 1)}
        spellCheck={false}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          const parsed = parseArguments(event.target.value);
          if (parsed.ok) onDraft?.(parsed.args);
        }}
        aria-invalid={error !== null}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="run-card-actions">
        <button type="submit" className="button-primary" disabled={busy}>
          Approve with these arguments
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
