import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef, useState } from 'react';
import { describeFileChange, type FileDiff } from '../../../../engine/contract/changes.js';
import { diffRows, type DiffRow } from './diffRows.js';

/** Rows drawn one by one below this; above, only those in view (a file of 100,000 lines scrolls as smoothly as ten). */
const virtualAbove = 300;
export const diffRowHeight = 20;

interface DiffViewProps {
  diff: FileDiff;
  /** The height the lines may take before they scroll. */
  maxHeight?: number;
}

/**
 * One file's diff: line numbers on both sides, removed and added lines highlighted, long stretches of
 * unchanged lines folded (click to open those whose lines are known), a binary file by its sizes.
 */
export function DiffView({ diff, maxHeight = 420 }: DiffViewProps) {
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => diffRows(diff, opened), [diff, opened]);
  const open = (id: string) => setOpened((current) => new Set(current).add(id));
  if (diff.binary) return <p className="diff-note" data-testid="diff-binary">{capitalised(describeFileChange(diff))}</p>;
  return (
    <div className="diff-view" data-testid="diff-view" data-path={diff.path}>
      {diff.approximate && <p className="diff-note">Too different to align line by line in reasonable time: shown as every line removed and added.</p>}
      {rows.length === 0 ? <p className="diff-note">{unchangedText(diff)}</p> : <DiffLines rows={rows} onOpen={open} maxHeight={maxHeight} />}
    </div>
  );
}

interface DiffLinesProps {
  rows: readonly DiffRow[];
  onOpen: (id: string) => void;
  maxHeight: number;
}

function DiffLines({ rows, onOpen, maxHeight }: DiffLinesProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = rows.length > virtualAbove;
  // Plain (uncompiled) React re-renders this component on every virtualizer change, which is what it needs.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => diffRowHeight,
    overscan: 30,
  });
  const height = Math.min(maxHeight, rows.length * diffRowHeight + 2);
  return (
    <div className="diff-lines" ref={scroller} style={{ maxHeight, height: virtual ? height : undefined }} role="region" aria-label="Changed lines" tabIndex={0}>
      {virtual ? (
        <div className="diff-lines-inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            return row ? <DiffRowView key={item.key} row={row} onOpen={onOpen} top={item.start} /> : null;
          })}
        </div>
      ) : (
        rows.map((row, index) => <DiffRowView key={row.kind === 'fold' ? row.id : index} row={row} onOpen={onOpen} />)
      )}
    </div>
  );
}

const signClass = { ' ': 'diff-same', '+': 'diff-added', '-': 'diff-removed' } as const;

/** One row; `top` places it in a virtualised list. */
export const DiffRowView = memo(function DiffRowView({ row, onOpen, top }: { row: DiffRow; onOpen: (id: string) => void; top?: number }) {
  const placed = top === undefined ? undefined : { transform: `translateY(${top}px)` };
  const className = top === undefined ? 'diff-row' : 'diff-row diff-row-placed';
  if (row.kind === 'fold') {
    const words = `${row.count.toLocaleString('en-US')} unchanged ${row.count === 1 ? 'line' : 'lines'}`;
    return (
      <div className={`${className} diff-fold`} style={placed}>
        {row.openable ? (
          <button type="button" className="diff-fold-button" onClick={() => onOpen(row.id)} title="Show these lines">
            ⋯ Show {words}
          </button>
        ) : (
          <span className="diff-fold-text">⋯ {words}</span>
        )}
      </div>
    );
  }
  return (
    <div className={`${className} ${signClass[row.sign]}`} style={placed} data-sign={row.sign}>
      <span className="diff-no" aria-label={row.oldNo === null ? undefined : `old line ${row.oldNo}`}>
        {row.oldNo ?? ''}
      </span>
      <span className="diff-no" aria-label={row.newNo === null ? undefined : `new line ${row.newNo}`}>
        {row.newNo ?? ''}
      </span>
      <span className="diff-sign" aria-hidden="true">
        {row.sign === ' ' ? '' : row.sign === '-' ? '−' : '+'}
      </span>
      <span className="diff-text">
        {row.text}
        {row.cr && (
          <span className="diff-mark" title="Carriage return: this line ends with CRLF">
            ␍
          </span>
        )}
        {row.noNewline && (
          <span className="diff-mark" title="The file ends here without a line break">
            no newline at end
          </span>
        )}
      </span>
    </div>
  );
});

/** Why a changed file shows no lines. */
function unchangedText(diff: FileDiff): string {
  if (diff.status === 'renamed') return `Renamed from ${diff.oldPath ?? '?'}; the content is the same.`;
  if (diff.notes.length > 0) return `Only this changed: ${diff.notes.join(', ')}.`;
  if (diff.status === 'added' || diff.status === 'deleted') return 'An empty file.';
  return 'No change: the file already has this content.';
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
