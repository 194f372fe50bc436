import { useState } from 'react';
import type { RequestPayload } from '../../../../engine/contract/index.js';
import type { ApprovalCardState } from '../../store/runView.js';
import { ArgumentsEditor } from './ArgumentsEditor.js';

export type ApprovalAnswer = Omit<RequestPayload<'session:approve'>, 'requestId'>;

interface ApprovalActionsProps {
  card: ApprovalCardState;
  busy: boolean;
  onAnswer: (answer: ApprovalAnswer) => void;
}

/** Approve, deny, edit the arguments, or always allow the command (when the engine offers it). */
export function ApprovalActions({ card, busy, onAnswer }: ApprovalActionsProps) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    return <ArgumentsEditor initial={card.args} busy={busy} onApprove={(args) => onAnswer({ decision: 'approve', args })} onCancel={() => setEditing(false)} />;
  }
  return (
    <div className="run-card-actions">
      <button type="button" className="button-primary" disabled={busy} onClick={() => onAnswer({ decision: 'approve' })}>
        Approve
      </button>
      <button type="button" disabled={busy} onClick={() => onAnswer({ decision: 'deny' })}>
        Deny
      </button>
      <button type="button" disabled={busy} onClick={() => setEditing(true)}>
        Edit
      </button>
      {card.canAlwaysAllow && (
        <button type="button" className="button-quiet" disabled={busy} onClick={() => onAnswer({ decision: 'approve', alwaysAllow: true })}>
          Always allow this command
        </button>
      )}
    </div>
  );
}
