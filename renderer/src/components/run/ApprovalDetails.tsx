import type { ApprovalCardState } from '../../store/runView.js';

/** What an approval is about: the real path, the exact command, why it asks, and the arguments. */
export function ApprovalDetails({ card }: { card: ApprovalCardState }) {
  const { command, cwd } = card.args;
  return (
    <div className="approval-details">
      <p className="approval-reason">{card.reason}</p>
      <dl className="approval-facts">
        {card.path !== undefined && (
          <>
            <dt>Path</dt>
            <dd>
              <code data-testid="approval-path">{card.path}</code>
            </dd>
          </>
        )}
        {typeof command === 'string' && (
          <>
            <dt>Command</dt>
            <dd>
              <code data-testid="approval-command">{command}</code>
            </dd>
          </>
        )}
        {typeof cwd === 'string' && (
          <>
            <dt>In folder</dt>
            <dd>
              <code>{cwd}</code>
            </dd>
          </>
        )}
      </dl>
      <p className="approval-args-label">Arguments</p>
      <pre className="run-code" data-testid="approval-args">
        {JSON.stringify(card.args, null, 2)}
      </pre>
    </div>
  );
}
