import type { ToolActivity } from '../../store/runView.js';
import { ActivityTable } from './ActivityTable.js';
import { formatDuration, shortArgs } from './formatRun.js';

const statusWords: Record<ToolActivity['status'], string> = { running: 'running…', ok: 'ok', failed: 'failed' };

/** One tool call: tool, arguments in short, result, duration, the first line of what it returned, and a table tool's rows. */
export function ActivityEntry({ entry }: { entry: ToolActivity }) {
  const args = shortArgs(entry.args);
  return (
    <li className={`activity-entry activity-${entry.status}`} data-status={entry.status} data-tool={entry.tool}>
      <div className="activity-line">
        <code className="activity-tool">{entry.tool}</code>
        <span className="activity-args" title={JSON.stringify(entry.args, null, 2)}>
          {args}
        </span>
        <span className="activity-result">{statusWords[entry.status]}</span>
        {entry.durationMs !== null && <span className="activity-duration">{formatDuration(entry.durationMs)}</span>}
      </div>
      {entry.summary && <p className="activity-summary">{entry.summary}</p>}
      {entry.table && <ActivityTable table={entry.table} />}
    </li>
  );
}
