import { useState } from 'react';
import { requestScopeWords } from '../../../../engine/contract/changes.js';
import type { RequestPayload } from '../../../../engine/contract/index.js';
import type { ApprovalCardState } from '../../store/runView.js';
import { ArgumentsEditor } from './ArgumentsEditor.js';
import { alwaysAllowLabel } from './approvalWording.js';

export type ApprovalAnswer = Omit<RequestPayload<'session:approve'>, 'requestId'>;

interface ApprovalActionsProps {
  card: ApprovalCardState;
  busy: boolean;
  onAnswer: (answer: ApprovalAnswer) => void;
  /** The arguments being edited, each time they are valid JSON (undefined once the edit is cancelled), to preview them. */
  onDraftArgs?: (args: Record<string, unknown> | undefined) => void;
}

/** Approve, deny, edit the arguments, allow for the rest of the request or always allow the command (when the engine offers it). */
export function ApprovalActions({ card, busy, onAnswer, onDraftArgs }: ApprovalActionsProps) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    const cancel = () => {
      setEditing(false);
      onDraftArgs?.(undefined);
    };
    return <ArgumentsEditor initial={card.args} busy={busy} onApprove={(args) => onAnswer({ decision: 'approve', args })} onCancel={cancel} onDraft={onDraftArgs} />;
  }
  return (
    <div className="run-card-actions">
      <button type="button" className="button-primary" disabled={busy} onClick={() => onAnswer({ decision: 'approve' })}>
        Approve
      </button>
      {card.canAllowForRequest && (
        <button type="button" disabled={busy} onClick={() => onAnswer({ decision: 'approve', allowForRequest: true })} title="Approve this, and let the same kind of action through without asking until this request ends">
          Approve {requestScopeWords(card.tool)} for the rest of this request
        </button>
      )}
      <button type="button" disabled={busy} onClick={() => onAnswer({ decision: 'deny' })}>
        Deny
      </button>
      <button type="button" disabled={busy} onClick={() => setEditing(true)}>
        Edit
      </button>
      {card.canAlwaysAllow && (
        <button type="button" className="button-quiet" disabled={busy} onClick={() => onAnswer({ decision: 'approve', alwaysAllow: true })}>
          {alwaysAllowLabel(card.tool)}
        </button>
      )}
    </div>
  );
}
