import { useId, type ReactElement, type ReactNode } from 'react';
import { cloneElement } from 'react';

interface FieldProps {
  label: string;
  hint?: ReactNode;
  /** The single input, select or textarea this field labels. */
  children: ReactElement<{ id?: string; 'aria-describedby'?: string }>;
}

/** A labelled form control with an optional hint that screen readers read with it. */
export function Field({ label, hint, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'aria-describedby': hint ? hintId : undefined })}
      {hint && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
    </div>
  );
}
