import { lazy, Suspense, useEffect, useState } from 'react';
import type { FileChange } from '../../../../engine/contract/changes.js';
import { useWorkbench } from '../../store/StoreContext.js';
import { ChangeCounts } from './FileChangeTitle.js';
import { useFileDiff } from './useFileDiff.js';
import './changes.css';

const DiffView = lazy(() => import('./DiffView.js').then((module) => ({ default: module.DiffView })));

/** Diffs opened by themselves when an undo takes back this few files, each this small. */
const openByItself = { files: 5, lines: 200 };

/**
 * Everything that changed since before a request (what undo or regenerate takes back), by path, fetched
 * once for the dialog; null while it loads or when it cannot be listed.
 */
export function useChangesSince(messageId: string): ReadonlyMap<string, FileChange> | null {
  const loadChanges = useWorkbench((state) => state.loadChanges);
  const [byPath, setByPath] = useState<ReadonlyMap<string, FileChange> | null>(null);
  useEffect(() => {
    let current = true;
    void loadChanges(messageId, 'since').then((response) => {
      if (!current || !response.ok) return;
      const files = response.value.files;
      const small = files.length <= openByItself.files && files.every((file) => file.added + file.removed <= openByItself.lines);
      setByPath(new Map(files.flatMap((file) => [[file.path, { ...file, open: small }], ...(file.oldPath ? [[file.oldPath, { ...file, open: small }] as const] : [])])));
    });
    return () => {
      current = false;
    };
  }, [loadChanges, messageId]);
  return byPath;
}

/** A file an undo would take back: its counts, and its diff (what undo reverses) behind a toggle. */
export function RewindFileDiff({ messageId, change }: { messageId: string; change: FileChange & { open?: boolean } }) {
  const [open, setOpen] = useState(change.open ?? false);
  const diff = useFileDiff(messageId, open ? change.path : null, 'since');
  return (
    <>
      <ChangeCounts change={change} />
      <button type="button" className="button-quiet button-small" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide diff' : 'Show diff'}
      </button>
      {open && (
        <div className="rewind-file-diff">
          {diff.state === 'loading' && <p className="muted diff-note">Loading the diff…</p>}
          {diff.state === 'failed' && <p className="form-error">{diff.error}</p>}
          {diff.state === 'ready' && (
            <Suspense fallback={<p className="muted diff-note">Loading the diff…</p>}>
              <DiffView diff={diff.value} maxHeight={240} />
            </Suspense>
          )}
        </div>
      )}
    </>
  );
}
