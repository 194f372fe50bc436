import { z } from 'zod';

/** A later request of another conversation that changed a file an undo would put back. */
export interface UndoConflict {
  conversationId: string;
  /** The conversation's title as listed (one line). */
  conversationTitle: string;
  messageId: string;
  /** The request's text, on one line and shortened. */
  request: string;
}

/** One path an undo would put back: brought back, removed (created since), or recreated (deleted since). */
export interface UndoFile {
  path: string;
  kind: 'file' | 'symlink' | 'folder';
  change: 'restored' | 'removed' | 'recreated';
  /** Set when a later request of another conversation changed the file: the undo then asks keep or take. */
  conflict?: UndoConflict;
}

/**
 * For a file another conversation changed since: 'keep' leaves it as it is now (the other conversation's
 * version), 'take' puts this conversation's checkpoint version back over it.
 */
export const undoChoiceSchema = z.enum(['keep', 'take'], { error: 'must be "keep" or "take"' });
export type UndoChoice = z.infer<typeof undoChoiceSchema>;

/** The choice per conflicting file, by its path as the preview gave it. */
export const undoChoicesSchema = z.record(z.string().min(1, { error: 'must be a file path' }).max(4096, { error: 'must be a file path' }), undoChoiceSchema, {
  error: 'must map each conflicting file to "keep" or "take"',
});
export type UndoChoices = z.infer<typeof undoChoicesSchema>;

export interface UndoResult {
  /** The files put back (changed, created or removed), conflicts taken included. */
  restoredFiles: string[];
  /** The conflicting files left with the other conversation's version. */
  keptFiles: string[];
  /**
   * The checkpoint taken just before the files were put back: `changes:undo-revert` with this revertId and
   * these paths takes the undo's file changes back. Null when nothing was put back.
   */
  takeBack: { revertId: string; paths: string[] } | null;
}
