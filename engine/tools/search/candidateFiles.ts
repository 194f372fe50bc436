import picomatch from 'picomatch';
import type { OnUnreachable } from '../../workspace/unreachable.js';
import { walkFiles } from '../../workspace/walkFiles.js';

export interface CandidateOptions {
  root: string;
  /** Folder to search, from the root ('' for the root itself). */
  from: string;
  /** Without '/' a glob on the file name (`*.ts`), else on the path relative to `from` (`lib/*.test.ts`). */
  glob?: string;
  signal: AbortSignal;
  /** Told of each subtree the walk cannot reach (see walkFiles). */
  onUnreachable?: OnUnreachable;
}

/**
 * The files a folder search reads, in walk order: what git would not ignore, regular files only.
 * Symlinks are left out rather than followed, so a search never reads through one.
 */
export async function* candidateFiles({ root, from, glob, signal, onUnreachable }: CandidateOptions): AsyncGenerator<string> {
  const matches = glob ? globTest(glob) : null;
  const prefix = from ? from.length + 1 : 0;
  // Listed ahead: the walk feeds the search workers, which leave its thread the least time on a busy machine.
  for await (const { relPath, dirent } of walkFiles(root, { from, signal, onUnreachable, listAhead: true })) {
    if (!dirent.isFile()) continue;
    if (matches && !matches(relPath.slice(prefix))) continue;
    yield relPath;
  }
}

function globTest(glob: string): (relPath: string) => boolean {
  const pattern = glob.replace(/^\.\//, '');
  const test = picomatch(pattern, { dot: true });
  if (pattern.includes('/')) return test;
  return (relPath) => test(relPath.slice(relPath.lastIndexOf('/') + 1));
}
