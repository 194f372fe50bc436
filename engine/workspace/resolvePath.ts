import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { pathLimitProblem } from './pathLimits.js';
import { PathRefusedError, isInside, lexicalPath, protectedWriteReason } from './pathRules.js';

export type Access = 'read' | 'write';

/** A path checked against the workspace: where the model pointed, and where that really is. */
export interface WorkspacePath {
  /** As the model wrote it; refusals and results name this. */
  readonly requested: string;
  /** Relative to the root with '/' separators, symlinks resolved; '' for the root itself. */
  readonly rel: string;
  /** Absolute real path: every symlink resolved, as far as the path exists. */
  readonly real: string;
  readonly access: Access;
  /** True when a final symlink stands for itself (resolved with `followLink: false`). */
  readonly keepsLink: boolean;
}

/**
 * Resolves a path as the model wrote it against the folder `root` (a real path), or throws
 * PathRefusedError naming it and the reason: outside the folder, through a symlink leading out or a
 * broken one, or (to write) into .git/ or .workbench/. With `followLink: false` a final symlink is kept
 * as itself (to delete or move the link, not its target). A path the system could not use whole (past
 * PATH_MAX, or a name past NAME_MAX) is refused, for it would be written by descriptor and then break
 * every walk of the folder. This is the first of the workspace's two checks; the second is at the moment
 * of use (see Workspace).
 */
export async function resolvePath(root: string, requested: string, access: Access, { followLink = true }: { followLink?: boolean } = {}): Promise<WorkspacePath> {
  const lexical = lexicalPath(requested, root);
  if (access === 'write') refuseProtected(requested, lexical);
  const absolute = path.join(root, lexical);
  refuseBeyondLimits(root, requested, absolute);
  const real =
    followLink || lexical === ''
      ? await realPathOf(root, requested, absolute)
      : path.join(await realPathOf(root, requested, path.dirname(absolute)), path.basename(absolute));
  const rel = path.relative(root, real).split(path.sep).join('/');
  if (access === 'write') refuseProtected(requested, rel);
  if (real !== absolute) refuseBeyondLimits(root, requested, real);
  return { requested, rel, real, access, keepsLink: !followLink && lexical !== '' };
}

function refuseProtected(requested: string, rel: string): void {
  const reason = protectedWriteReason(rel);
  if (reason) throw new PathRefusedError(requested, reason);
}

function refuseBeyondLimits(root: string, requested: string, absolute: string): void {
  const problem = pathLimitProblem(absolute, { fromIndex: root.length });
  if (problem) throw new PathRefusedError(requested, `${problem}; choose a shorter path`);
}

/**
 * The real path of `absolute`: realpath of the deepest part that exists, plus the parts that do not
 * exist yet (which therefore cannot be symlinks), or that make the real path too long to resolve
 * (refused by the caller). A symlink leading outside is refused here.
 */
async function realPathOf(root: string, requested: string, absolute: string): Promise<string> {
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      const real = path.join(await realpath(existing), ...missing);
      if (!isInside(root, real)) throw new PathRefusedError(requested, await outsideReason(root, existing));
      return real;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const refusal = code === undefined ? undefined : unreachableReasons[code];
      if (refusal) throw new PathRefusedError(requested, refusal);
      // ENAMETOOLONG: a symlink on the way leads somewhere deep; the path it makes is judged by its length.
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ENAMETOOLONG') throw error;
      if (await isDanglingSymlink(existing)) {
        throw new PathRefusedError(requested, `it goes through a broken symlink (${path.basename(existing)} → ${await readlink(existing)})`);
      }
      if (existing === root) throw error;
      missing.unshift(path.basename(existing));
      existing = path.dirname(existing);
    }
  }
}

async function isDanglingSymlink(file: string): Promise<boolean> {
  const info = await lstat(file).catch(() => null);
  return info?.isSymbolicLink() ?? false;
}

/** Why a path cannot be resolved, in words that name nothing outside the folder (the system's error names the path). */
const unreachableReasons: Partial<Record<string, string>> = {
  ELOOP: 'it goes through a symlink loop',
  EACCES: 'a folder on the way may not be read (permission denied)',
  EPERM: 'a folder on the way may not be read (not permitted)',
};

/**
 * Why a path that resolves outside is refused: through which symlink of the folder, named by its path in
 * the folder and never by where it leads (which would tell the model about the disk outside).
 */
async function outsideReason(root: string, existing: string): Promise<string> {
  const link = await linkLeadingOutside(root, existing);
  return link === null ? 'it leads outside the project folder' : `it is reached through a symlink that leads outside the project folder (${link})`;
}

/** The first symlink on the way from the root to `existing` that leads outside, as a path from the root; null when none does. */
async function linkLeadingOutside(root: string, existing: string): Promise<string | null> {
  const names = path.relative(root, existing).split(path.sep);
  for (let count = 1; count <= names.length; count += 1) {
    const at = path.join(root, ...names.slice(0, count));
    if (!(await lstat(at).catch(() => null))?.isSymbolicLink()) continue;
    const leadsOut = await realpath(at).then((real) => !isInside(root, real), () => true);
    if (leadsOut) return names.slice(0, count).join('/');
  }
  return null;
}
