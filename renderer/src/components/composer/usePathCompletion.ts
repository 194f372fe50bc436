import { useCallback, useEffect, useRef, useState } from 'react';
import type { PathMatches, Response } from '../../../../engine/contract/index.js';
import { mentionAt, type Mention } from './mention.js';

export type PathMatch = PathMatches['matches'][number];

/** Keystrokes this close together ask the engine once, for the last of them. */
const typingPauseMs = 60;

export interface Completion {
  mention: Mention;
  matches: PathMatch[];
  /** Index of the highlighted match. */
  active: number;
  truncated: boolean;
  /** Set when the search failed; shown in the list. */
  error: string | null;
  /** True until the first answer for this mention arrives. */
  loading: boolean;
}

/**
 * The `@` completion of the request box: follows the text and caret, asks the engine for matching paths
 * (answers to an older query are dropped), and keeps the highlighted match for the keyboard. Escape
 * closes it until the text after the `@` changes.
 */
export function usePathCompletion(search: (query: string) => Promise<Response<'context:paths'>>) {
  const [completion, setCompletion] = useState<Completion | null>(null);
  const asked = useRef(0);
  /** The mention Escape closed the list on (start and query): it stays closed until the query changes. */
  const dismissed = useRef<string | null>(null);
  // A change and the caret move it causes arrive as two calls; one search is enough.
  const last = useRef({ text: '', caret: -1 });
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancelPending = () => {
    if (pending.current !== null) clearTimeout(pending.current);
    pending.current = null;
  };
  useEffect(() => cancelPending, []);

  const update = useCallback(
    (text: string, caret: number) => {
      if (last.current.text === text && last.current.caret === caret) return;
      last.current = { text, caret };
      const mention = mentionAt(text, caret);
      if (!mention || `${mention.start}:${mention.query}` === dismissed.current) {
        cancelPending();
        asked.current += 1;
        setCompletion(null);
        return;
      }
      const ask = (asked.current += 1);
      setCompletion((current) =>
        current && current.mention.start === mention.start ? { ...current, mention } : { mention, matches: [], active: 0, truncated: false, error: null, loading: true },
      );
      cancelPending();
      pending.current = setTimeout(() => {
        pending.current = null;
        void search(mention.query).then((response) => {
          if (ask !== asked.current) return;
          setCompletion((current) => {
            if (!current) return null;
            if (!response.ok) return { ...current, matches: [], error: response.error, loading: false };
            return { ...current, matches: response.value.matches, truncated: response.value.truncated, active: 0, error: null, loading: false };
          });
        });
      }, typingPauseMs);
    },
    [search],
  );

  const move = useCallback((delta: number) => {
    setCompletion((current) => {
      if (!current || current.matches.length === 0) return current;
      const count = current.matches.length;
      return { ...current, active: (current.active + delta + count) % count };
    });
  }, []);

  const highlight = useCallback((index: number) => setCompletion((current) => (current ? { ...current, active: index } : current)), []);

  /** Closes the list; `dismiss` keeps it closed for this `@` (Escape), otherwise it opens again as typing goes on. */
  const close = useCallback((dismiss = false) => {
    cancelPending();
    last.current = { text: '', caret: -1 };
    setCompletion((current) => {
      if (dismiss && current) dismissed.current = `${current.mention.start}:${current.mention.query}`;
      return null;
    });
    asked.current += 1;
  }, []);

  return { completion, update, move, highlight, close };
}
