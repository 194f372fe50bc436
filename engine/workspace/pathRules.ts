import path from 'node:path';
import { shownPath } from './unreachable.js';
import { withNamesUnquoted } from './shownName.js';

/** A path the agent may not use, with the path as the model wrote it and the reason in plain words. */
export class PathRefusedError extends Error {
  override name = 'PathRefusedError';
  constructor(
    readonly requested: string,
    readonly reason: string,
  ) {
    super(`Refused path "${shownPath(requested)}": ${reason}.`);
  }
}

/** Folders the agent never lists and never writes into, whatever .gitignore says. */
export const hiddenDirectories: ReadonlySet<string> = new Set(['.git', '.workbench']);

/** Refuses a folder tool (listing, map, search) pointed into .git/ or .workbench/; `action` e.g. "listed". */
export function refuseHiddenFolder(target: { requested: string; rel: string }, action: string): void {
  const hidden = target.rel.split('/').find((part) => hiddenDirectories.has(part));
  if (!hidden) return;
  const holds = hidden === '.git' ? 'git’s own data' : 'the workbench’s own state';
  throw new PathRefusedError(target.requested, `${hidden}/ is never ${action}; it holds ${holds}`);
}

/**
 * Turns a path as the model wrote it into a normalised path relative to the workspace root ('' for the
 * root, '/' separators), or refuses it. Only the text is judged here; symlinks are judged at use.
 * Backslashes count as separators on every platform, so `..\..\x` cannot slip through on POSIX.
 */
export function lexicalPath(requested: string, root: string): string {
  // A name the tools showed quoted (shownName) and the model copied so is read back first.
  const text = withNamesUnquoted(requested);
  if (text.includes('\0')) throw new PathRefusedError(requested, 'it contains a NUL character');
  const slashed = text.replace(/\\/g, '/');
  if (isAbsolute(slashed)) throw new PathRefusedError(requested, absoluteReason(slashed, root));
  if (slashed === '~' || slashed.startsWith('~/')) {
    throw new PathRefusedError(requested, 'home-relative paths (~) are not allowed; paths are relative to the project folder');
  }
  const normalised = path.posix.normalize(slashed === '' ? '.' : slashed).replace(/\/+$/, '');
  if (normalised === '..' || normalised.startsWith('../')) {
    throw new PathRefusedError(requested, 'it leads outside the project folder');
  }
  return normalised === '.' ? '' : normalised;
}

/** Whether `real` (an absolute real path) is the root or inside it; `/proj_evil` is not inside `/proj`. */
export function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** The reason a write to `rel` (root-relative, '/' separators) is refused, or null when it may be written. */
export function protectedWriteReason(rel: string): string | null {
  if (rel === '') return 'it is the project folder itself';
  const parts = rel.toLowerCase().split('/');
  if (parts[0] === '.workbench') return '.workbench/ holds the workbench’s own state and is never written by tools';
  if (parts.includes('.git')) return '.git/ belongs to git and is never written by tools';
  return null;
}

function isAbsolute(slashed: string): boolean {
  return slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed);
}

function absoluteReason(slashed: string, root: string): string {
  const base = 'absolute paths are not allowed; give a path relative to the project folder';
  const rootSlashed = root.replace(/\\/g, '/');
  if (slashed === rootSlashed) return `${base} (use ".")`;
  if (slashed.startsWith(rootSlashed + '/')) return `${base} (here: "${slashed.slice(rootSlashed.length + 1)}")`;
  return base;
}
