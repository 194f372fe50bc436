import { useId } from 'react';
import type { UndoChoice, UndoChoices, UndoFile } from '../../../../engine/contract/index.js';

/** A file an undo would put back that a later request of another conversation changed. */
export type ConflictingFile = UndoFile & { conflict: NonNullable<UndoFile['conflict']> };

export function conflictingFiles(files: readonly UndoFile[]): ConflictingFile[] {
  return files.filter((file): file is ConflictingFile => file.conflict !== undefined);
}

interface UndoConflictsProps {
  files: readonly ConflictingFile[];
  choices: UndoChoices;
  onChoose: (path: string, choice: UndoChoice) => void;
}

/** Each file another conversation changed since, with that conversation's request and a keep/take choice (keep unless changed). */
export function UndoConflicts({ files, choices, onChoose }: UndoConflictsProps) {
  const group = useId();
  return (
    <section className="undo-conflicts" data-testid="undo-conflicts" aria-label="Files another conversation changed since">
      <p>
        Another conversation changed {files.length === 1 ? 'this file' : 'these files'} after this request. Keep its version, or take this conversation’s from before the
        request?
      </p>
      <ul>
        {files.map(({ path, conflict }, index) => {
          const taken = choices[path] === 'take';
          return (
            <li key={path} data-testid="undo-conflict" data-path={path} data-choice={taken ? 'take' : 'keep'}>
              <div className="rewind-file-line">
                <code>{path}</code> <span className="muted">changed since by</span> <q>{conflict.request}</q> <span className="muted">in</span>{' '}
                <strong title={conflict.conversationId}>{conflict.conversationTitle}</strong>
              </div>
              <div className="undo-choice" role="radiogroup" aria-label={`Which version of ${path}`}>
                <label>
                  <input type="radio" name={`${group}-${index}`} checked={!taken} onChange={() => onChoose(path, 'keep')} /> Keep the other conversation’s version
                </label>
                <label>
                  <input type="radio" name={`${group}-${index}`} checked={taken} onChange={() => onChoose(path, 'take')} /> Take this conversation’s
                </label>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
