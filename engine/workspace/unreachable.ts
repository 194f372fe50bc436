/** A file or folder a walk met but could not enter or use, with why, in words. */
export interface UnreachableSubtree {
  /** From the workspace root, '/' separators. */
  readonly relPath: string;
  /** E.g. "its full path is 4,097 bytes; Linux takes paths of less than 4,096 bytes (PATH_MAX)". */
  readonly reason: string;
}

export type OnUnreachable = (subtree: UnreachableSubtree) => void;

/**
 * The subtrees the walks of one open folder could not reach (a path past the system's limit, a folder it
 * may not read). Each is a warning once per session, however many walks meet it: the file map, the
 * listings, searches, checkpoints and changes all skip it and go on.
 */
export class UnreachableSubtrees {
  private readonly told = new Map<string, string>();

  constructor(private readonly warn: (message: string) => void = () => {}) {}

  /** A walk met it: a warning the first time. */
  readonly report: OnUnreachable = (subtree) => {
    const message = this.remember(subtree);
    if (message) this.warn(message);
  };

  /** Remembered without a warning event, for a caller that lists warnings() itself (a snapshot). */
  readonly remember = (subtree: UnreachableSubtree): string | null => {
    if (this.told.has(subtree.relPath)) return null;
    const message = `${shownPath(subtree.relPath)} cannot be reached (${subtree.reason}). It is left out of listings, searches and the changes, and undo does not cover it.`;
    this.told.set(subtree.relPath, message);
    return message;
  };

  /** An undo that left these as they were says so, every time. */
  undoLeft(subtrees: readonly UnreachableSubtree[]): void {
    for (const subtree of subtrees) {
      this.remember(subtree);
      this.warn(`Undo left ${shownPath(subtree.relPath)} as it was: it cannot be reached (${subtree.reason}).`);
    }
  }

  /** The warning of each subtree met so far. */
  warnings(): string[] {
    return [...this.told.values()];
  }
}

/** The subtrees one walk skipped, for the note a tool's result ends with; each also goes on to `forward`. */
export class SkippedSubtrees {
  private readonly skipped: UnreachableSubtree[] = [];

  constructor(private readonly forward: OnUnreachable) {}

  readonly add: OnUnreachable = (subtree) => {
    this.skipped.push(subtree);
    this.forward(subtree);
  };

  /** No line when nothing was skipped. */
  note(): string[] {
    if (this.skipped.length === 0) return [];
    const shown = this.skipped.slice(0, maxNamed).map((subtree) => `${shownPath(subtree.relPath)} (${subtree.reason})`);
    const more = this.skipped.length > maxNamed ? `; and ${this.skipped.length - maxNamed} more` : '';
    return [`Note: left out, as it cannot be reached: ${shown.join('; ')}${more}.`];
  }
}

const maxNamed = 5;
/** Paths longer than this are shown by their ends and their depth. */
const shownChars = 100;

/** A path as a message names it: whole when short, else its first and last names and how deep it is. */
export function shownPath(relPath: string): string {
  if (relPath.length <= shownChars) return relPath;
  const half = shownChars / 2;
  const headEnd = relPath.indexOf('/', half - 10);
  const tailStart = relPath.lastIndexOf('/', relPath.length - half + 10);
  const head = headEnd > 0 && headEnd < shownChars ? relPath.slice(0, headEnd + 1) : relPath.slice(0, half);
  const tail = tailStart > headEnd && relPath.length - tailStart < shownChars ? relPath.slice(tailStart) : relPath.slice(-half);
  const levels = relPath.split('/').length;
  return `${head}…${tail} (${levels > 1 ? `${levels.toLocaleString('en-US')} levels down` : `${relPath.length.toLocaleString('en-US')} characters`})`;
}

/** Why a folder could not be listed, in words, or null when it is simply gone (vanished, or no longer a folder). */
export function listingFailureReason(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return null;
  if (code === 'EACCES' || code === 'EPERM') return `it may not be read (${code})`;
  if (code === 'ENAMETOOLONG') return 'the system says its path is too long (ENAMETOOLONG)';
  return `it could not be listed (${code ?? (error instanceof Error ? error.message : String(error))})`;
}
