import type { FileChange } from '../../../../engine/contract/changes.js';

const badges: Record<FileChange['status'], { letter: string; words: string }> = {
  added: { letter: 'A', words: 'created' },
  modified: { letter: 'M', words: 'changed' },
  deleted: { letter: 'D', words: 'deleted' },
  renamed: { letter: 'R', words: 'renamed' },
};

/** A changed file in one line: what happened (A, M, D, R), its path (old → new for a rename), its counts and what else changed. */
export function FileChangeTitle({ change }: { change: FileChange }) {
  const badge = badges[change.status];
  return (
    <span className="file-change-title">
      <span className={`change-badge change-${change.status}`} title={badge.words} aria-label={badge.words}>
        {badge.letter}
      </span>
      <code className="change-path" title={change.path}>
        {change.oldPath !== undefined ? `${change.oldPath} → ${change.path}` : change.path}
      </code>
      <ChangeCounts change={change} />
      {change.notes.length > 0 && <span className="change-notes">{change.notes.join(', ')}</span>}
    </span>
  );
}

export function ChangeCounts({ change }: { change: Pick<FileChange, 'added' | 'removed' | 'binary'> }) {
  if (change.binary) return <span className="change-counts muted">binary</span>;
  return (
    <span className="change-counts">
      <span className="count-added">+{change.added.toLocaleString('en-US')}</span> <span className="count-removed">−{change.removed.toLocaleString('en-US')}</span>
    </span>
  );
}
