import type { UndoChoices, UndoFile, UndoResult } from '../../engine/contract/index.js';
import type { Prompter } from './prompter.js';
import { visibleLine } from './visibleText.js';

/** A file an undo would put back that a later request of another conversation changed. */
type Conflict = UndoFile & { conflict: NonNullable<UndoFile['conflict']> };

/** The files of an undo preview that another conversation changed since, in path order. */
export function conflictsOf(preview: readonly UndoFile[]): Conflict[] {
  return preview.filter((file): file is Conflict => file.conflict !== undefined);
}

/** Each conflicting file with the other conversation's request that changed it; every text from the folder or the model neutralised. */
export function conflictLines(conflicts: readonly Conflict[]): string {
  const lines = conflicts.map(({ path, conflict }) => `  ${visibleLine(path)}  changed since by "${visibleLine(conflict.request)}" (${visibleLine(conflict.messageId)}) in the conversation "${visibleLine(conflict.conversationTitle)}" (${visibleLine(conflict.conversationId)})`);
  const count = conflicts.length === 1 ? 'A file' : `${conflicts.length} files`;
  return [`${count} this undo would put back ${conflicts.length === 1 ? 'was' : 'were'} changed since by another conversation:`, ...lines].join('\n');
}

/**
 * Asks, file by file, whether to keep the other conversation's version (the default: Enter) or take this
 * conversation's. Null when the asking was withdrawn (Ctrl-C): then nothing is to be undone.
 */
export async function askConflictChoices(conflicts: readonly Conflict[], prompter: Prompter, signal: AbortSignal): Promise<UndoChoices | null> {
  const choices: UndoChoices = {};
  for (const { path, conflict } of conflicts) {
    for (;;) {
      const typed = await prompter.ask(`  ${visibleLine(path)}: [k]eep "${visibleLine(conflict.conversationTitle)}"'s version (Enter) or [t]ake this conversation's? > `, signal);
      if (signal.aborted) return null;
      const answer = (typed ?? '').trim().toLowerCase();
      if (answer === '' || answer === 'k' || answer === 'keep') choices[path] = 'keep';
      else if (answer === 't' || answer === 'take') choices[path] = 'take';
      else {
        prompter.print('  Type k to keep the other conversation’s version, or t to take this one’s.');
        continue;
      }
      break;
    }
  }
  return choices;
}

/** Without a terminal to ask on, every conflicting file keeps the other conversation's version. */
export function keepEvery(conflicts: readonly Conflict[]): UndoChoices {
  return Object.fromEntries(conflicts.map((file) => [file.path, 'keep' as const]));
}

/** What an undo did: the files it put back, those it kept, how to take it back, and the conversation cut. */
export function undoneText(undone: UndoResult, takeBackCommand: (takeBack: NonNullable<UndoResult['takeBack']>) => string): string {
  const { restoredFiles: restored, keptFiles: kept, takeBack } = undone;
  const files = restored.length === 1 ? '1 file' : `${restored.length} files`;
  const lines = [restored.length === 0 ? 'No files needed restoring.' : `Restored ${files}:`, ...restored.map((file) => `  ${visibleLine(file)}`)];
  if (kept.length > 0) lines.push(`Kept another conversation's version of ${kept.length === 1 ? '1 file' : `${kept.length} files`}:`, ...kept.map((file) => `  ${visibleLine(file)}`));
  if (takeBack) lines.push(`A checkpoint was taken first; to take this undo back: ${takeBackCommand(takeBack)}`);
  lines.push('The conversation now ends before that request; its research and plan were cleared.');
  return `${lines.join('\n')}\n`;
}
