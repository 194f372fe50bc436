import { fuzzyMatch } from '../../../../engine/contract/fuzzyPath.js';
import type { Completion } from './usePathCompletion.js';

interface PathCompletionProps {
  id: string;
  completion: Completion;
  onPick: (index: number) => void;
  onHighlight: (index: number) => void;
}

export const optionId = (listId: string, index: number) => `${listId}-option-${index}`;

/** The list under the request box while an `@` is typed: matching files and folders, the matched letters in bold. */
export function PathCompletion({ id, completion, onPick, onHighlight }: PathCompletionProps) {
  const { matches, active, mention, error, loading, truncated } = completion;
  const empty = error ?? (loading ? 'Searching the folder…' : matches.length === 0 ? (mention.query ? `No file or folder matches “${mention.query}”.` : 'This folder has no files to attach.') : null);
  return (
    <div className="path-completion" data-testid="path-completion">
      <ul id={id} role="listbox" aria-label="Files and folders to attach">
        {matches.map((match, index) => (
          <li
            key={match.path}
            id={optionId(id, index)}
            role="option"
            aria-selected={index === active}
            data-testid="path-option"
            data-kind={match.kind}
            className={index === active ? 'path-option path-option-active' : 'path-option'}
            // The request box keeps the focus (and the caret) while a choice is clicked.
            onMouseDown={(event) => event.preventDefault()}
            onMouseEnter={() => onHighlight(index)}
            onClick={() => onPick(index)}
          >
            <span className="path-option-kind">{match.kind === 'folder' ? 'folder' : 'file'}</span>
            <HighlightedPath path={match.kind === 'folder' ? `${match.path}/` : match.path} query={mention.query} />
          </li>
        ))}
      </ul>
      {empty && (
        <p className="path-completion-note muted" role="status">
          {empty}
        </p>
      )}
      {!empty && (
        <p className="path-completion-note muted">
          ↑↓ to choose, Enter or Tab to attach, Esc to close{truncated ? ' · only the first 100,000 files are searched' : ''}
        </p>
      )}
    </div>
  );
}

function HighlightedPath({ path, query }: { path: string; query: string }) {
  const matched = new Set(fuzzyMatch(query, path)?.positions ?? []);
  if (matched.size === 0) return <span className="path-option-path">{path}</span>;
  return (
    <span className="path-option-path">
      {[...path].map((char, index) => (matched.has(index) ? <b key={index}>{char}</b> : char))}
    </span>
  );
}
