import { useEffect, useState } from 'react';
import type { ChangeRange, FileDiff } from '../../../../engine/contract/changes.js';
import { useWorkbench } from '../../store/StoreContext.js';

export type Loaded<T> = { state: 'loading' } | { state: 'failed'; error: string } | { state: 'ready'; value: T };

/** One file's diff in a request's changes, fetched when asked for (`path` null: nothing yet). */
export function useFileDiff(messageId: string, path: string | null, range: ChangeRange): Loaded<FileDiff> {
  const loadFileDiff = useWorkbench((state) => state.loadFileDiff);
  const [loaded, setLoaded] = useState<{ key: string; diff: Loaded<FileDiff> } | null>(null);
  const key = `${messageId}\0${range}\0${path ?? ''}`;
  useEffect(() => {
    if (path === null) return;
    let current = true;
    void loadFileDiff(messageId, path, range).then((response) => {
      if (current) setLoaded({ key, diff: response.ok ? { state: 'ready', value: response.value } : { state: 'failed', error: response.error } });
    });
    return () => {
      current = false;
    };
  }, [loadFileDiff, messageId, path, range, key]);
  return loaded?.key === key ? loaded.diff : { state: 'loading' };
}
