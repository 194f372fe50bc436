import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { describeFileChange, describeTotals, type ChangeList, type FileChange, type FileDiff, type RevertResult } from '../../../../engine/contract/changes.js';
import type { Message } from '../../../../engine/contract/index.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { useModalDialog } from '../useModalDialog.js';
import { diffRows, type DiffRow } from './diffRows.js';
import { DiffRowView, diffRowHeight } from './DiffView.js';
import { FileChangeTitle } from './FileChangeTitle.js';
import { RevertDialog } from './RevertDialog.js';
import type { Loaded } from './useFileDiff.js';

interface ChangesDialogProps {
  message: Message;
  onClose: () => void;
}

/** A row of the one virtualised list: a file, a line about its diff, or a line of its diff. */
type ListRow = { kind: 'file'; file: FileChange } | { kind: 'note'; path: string; text: string; failed?: boolean } | { kind: 'diff'; path: string; row: DiffRow };

const rowHeights = { file: 40, note: 28, diff: diffRowHeight } as const;

/** What the cached diff of a file was computed for: a file whose counts or sizes changed since is fetched again. */
const versionOf = (file: FileChange) => `${file.path}\0${file.added}\0${file.removed}\0${file.before?.size ?? '-'}\0${file.after?.size ?? '-'}`;

/**
 * The Changes view of one request: every file it created, changed, deleted or renamed (shell-made
 * changes included) with its counts, each opening to its diff, and "Revert this file". Files and the
 * lines of opened diffs are one virtualised list, so thousands of files or a diff of 100,000 lines
 * scroll smoothly. While the request runs the list follows its changes as they come.
 */
export default function ChangesDialog({ message, onClose }: ChangesDialogProps) {
  const dialog = useModalDialog();
  const loadChanges = useWorkbench((state) => state.loadChanges);
  const loadFileDiff = useWorkbench((state) => state.loadFileDiff);
  const undoRevert = useWorkbench((state) => state.undoRevert);
  const totals = useWorkbench((state) => state.changeTotals[message.id]);
  const live = useWorkbench((state) => state.running && state.run?.messageId === message.id);
  const running = useWorkbench((state) => state.running);
  const [list, setList] = useState<Loaded<ChangeList>>({ state: 'loading' });
  const [reloads, setReloads] = useState(0);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [diffs, setDiffs] = useState<ReadonlyMap<string, Loaded<FileDiff>>>(() => new Map());
  const [folds, setFolds] = useState<ReadonlyMap<string, ReadonlySet<string>>>(() => new Map());
  const [reverting, setReverting] = useState<FileChange | null>(null);
  const [notice, setNotice] = useState<{ text: string; undo?: { revertId: string; paths: string[] } } | null>(null);

  /** The versions of diffs asked for, so each is fetched once (a changed file is a new version). */
  const asked = useRef(new Set<string>());
  const fetchDiffs = (wanted: readonly FileChange[]) => {
    for (const file of wanted) {
      const version = versionOf(file);
      if (asked.current.has(version)) continue;
      asked.current.add(version);
      void loadFileDiff(message.id, file.path).then((response) =>
        setDiffs((current) => new Map(current).set(version, response.ok ? { state: 'ready', value: response.value } : { state: 'failed', error: response.error })),
      );
    }
  };
  /** The open files as the list reload sees them (set with `expanded`). */
  const openedRef = useRef<ReadonlySet<string>>(new Set());

  // Counted again (a file changed during the run, a revert): the list is fetched again, with the open diffs that changed.
  useEffect(() => {
    let current = true;
    void loadChanges(message.id).then((response) => {
      if (!current) return;
      setList(response.ok ? { state: 'ready', value: response.value } : { state: 'failed', error: response.error });
      if (response.ok) fetchDiffs(response.value.files.filter((file) => openedRef.current.has(file.path)));
    });
    return () => {
      current = false;
    };
    // fetchDiffs reads only refs and stable store actions.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadChanges, message.id, totals, reloads]);

  const files = useMemo(() => (list.state === 'ready' ? list.value.files : []), [list]);
  const rows = useMemo(() => listRows(files, expanded, diffs, folds), [files, expanded, diffs, folds]);
  const showDiffs = (paths: ReadonlySet<string>) => {
    openedRef.current = paths;
    setExpanded(paths);
    fetchDiffs(files.filter((file) => paths.has(file.path)));
  };
  const toggle = (path: string) => {
    const next = new Set(expanded);
    if (!next.delete(path)) next.add(path);
    showDiffs(next);
  };
  const openFold = (path: string, id: string) => setFolds((current) => new Map(current).set(path, new Set(current.get(path)).add(id)));
  const reverted = (result: RevertResult, paths: string[]) => {
    setReverting(null);
    setNotice({ text: `Reverted ${paths.join(' and ')} to before this request.`, undo: { revertId: result.revertId, paths } });
    setReloads((count) => count + 1);
  };
  const takeBack = async (undo: { revertId: string; paths: string[] }) => {
    const response = await undoRevert(undo.revertId, undo.paths);
    setNotice({ text: response.ok ? `The revert of ${undo.paths.join(' and ')} was taken back.` : response.error });
    setReloads((count) => count + 1);
  };

  return (
    <dialog ref={dialog} className="dialog changes-dialog" aria-labelledby="changes-title" data-testid="changes-view" onClose={onClose}>
      <header className="changes-header">
        <div className="changes-heading">
          <h2 id="changes-title">Changes of this request</h2>
          <button type="button" className="button-quiet" onClick={onClose} aria-label="Close the changes">
            ✕
          </button>
        </div>
        <blockquote className="rewind-request">{message.text}</blockquote>
        <p className="changes-summary" data-testid="changes-totals">
          {list.state === 'ready' ? describeTotals(list.value.totals) : totals ? describeTotals(totals) : 'Counting…'}
          {live && <span className="pill changes-live">live: the run is still changing files</span>}
          {list.state === 'ready' && list.value.until === 'next-request' && <span className="muted"> · up to the next request</span>}
        </p>
        {files.length > 0 && (
          <div className="row">
            <button type="button" className="button-small" onClick={() => showDiffs(new Set(files.map((file) => file.path)))}>
              Show all diffs
            </button>
            <button type="button" className="button-small" onClick={() => showDiffs(new Set())}>
              Hide all diffs
            </button>
          </div>
        )}
      </header>
      {list.state === 'loading' && (
        <p className="muted" role="status">
          Listing the changed files…
        </p>
      )}
      {list.state === 'failed' && <p className="form-error">{list.error}</p>}
      {list.state === 'ready' && files.length === 0 && <p className="muted">This request changed no files{live ? ' yet' : ''}.</p>}
      {files.length > 0 && <ChangeRows rows={rows} expanded={expanded} canRevert={!running} onToggle={toggle} onRevert={setReverting} onOpenFold={openFold} />}
      {notice && (
        <p className="changes-notice" role="status" data-testid="changes-notice">
          {notice.text}{' '}
          {notice.undo && (
            <button type="button" className="button-small" disabled={running} onClick={() => notice.undo && void takeBack(notice.undo)}>
              Undo revert
            </button>
          )}
        </p>
      )}
      {reverting && <RevertDialog messageId={message.id} change={reverting} onClose={() => setReverting(null)} onReverted={reverted} />}
    </dialog>
  );
}

function listRows(files: readonly FileChange[], expanded: ReadonlySet<string>, diffs: ReadonlyMap<string, Loaded<FileDiff>>, folds: ReadonlyMap<string, ReadonlySet<string>>): ListRow[] {
  const rows: ListRow[] = [];
  for (const file of files) {
    rows.push({ kind: 'file', file });
    if (!expanded.has(file.path)) continue;
    const diff = diffs.get(versionOf(file)) ?? { state: 'loading' };
    if (diff.state === 'loading') rows.push({ kind: 'note', path: file.path, text: 'Loading the diff…' });
    else if (diff.state === 'failed') rows.push({ kind: 'note', path: file.path, text: diff.error, failed: true });
    else if (diff.value.binary) rows.push({ kind: 'note', path: file.path, text: describeFileChange(diff.value) });
    else {
      const lines = diffRows(diff.value, folds.get(file.path));
      if (diff.value.approximate) rows.push({ kind: 'note', path: file.path, text: 'Too different to align line by line: shown as every line removed and added.' });
      if (lines.length === 0) rows.push({ kind: 'note', path: file.path, text: diff.value.status === 'renamed' ? 'Renamed; the content is the same.' : `Only this changed: ${diff.value.notes.join(', ') || 'nothing'}.` });
      for (const row of lines) rows.push({ kind: 'diff', path: file.path, row });
    }
  }
  return rows;
}

interface ChangeRowsProps {
  rows: readonly ListRow[];
  expanded: ReadonlySet<string>;
  canRevert: boolean;
  onToggle: (path: string) => void;
  onRevert: (file: FileChange) => void;
  onOpenFold: (path: string, id: string) => void;
}

function ChangeRows({ rows, expanded, canRevert, onToggle, onRevert, onOpenFold }: ChangeRowsProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // Plain (uncompiled) React re-renders this component on every virtualizer change, which is what it needs.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => rowHeights[rows[index]?.kind ?? 'diff'],
    getItemKey: (index) => keyOf(rows[index], index),
    overscan: 20,
  });
  return (
    <div className="changes-list" ref={scroller} data-testid="changes-list">
      <div className="changes-list-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          if (row.kind === 'diff') return <DiffRowView key={item.key} row={row.row} top={item.start} onOpen={(id) => onOpenFold(row.path, id)} />;
          if (row.kind === 'note') {
            return (
              <p key={item.key} className={`changes-row-note${row.failed ? ' form-error' : ''}`} style={{ transform: `translateY(${item.start}px)` }}>
                {row.text}
              </p>
            );
          }
          const { file } = row;
          return (
            <div key={item.key} className="changes-file" style={{ transform: `translateY(${item.start}px)` }} data-testid="changes-file" data-path={file.path} data-status={file.status}>
              <button type="button" className="changes-toggle" aria-expanded={expanded.has(file.path)} onClick={() => onToggle(file.path)} title={describeFileChange(file)}>
                <span className="changes-caret" aria-hidden="true">
                  {expanded.has(file.path) ? '▾' : '▸'}
                </span>
                <FileChangeTitle change={file} />
              </button>
              {file.revertedSince ? (
                <span className="pill" title="Reverted, or changed back since">
                  back as before
                </span>
              ) : (
                <button type="button" className="button-small" disabled={!canRevert} title={canRevert ? 'Put this file back as it was before the request' : 'Not while a run is in progress'} onClick={() => onRevert(file)}>
                  Revert this file
                </button>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function keyOf(row: ListRow | undefined, index: number): string {
  if (!row) return String(index);
  if (row.kind === 'file') return `file:${row.file.path}`;
  return `${row.kind}:${row.path}:${index}`;
}
