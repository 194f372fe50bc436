import picomatch from 'picomatch';
import type { OnUnreachable } from '../../workspace/unreachable.js';
import { walkFileRuns } from '../../workspace/walkFiles.js';

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
 *
 * Handed over a folder's run of files at a time (see walkFileRuns), never an empty one: each step of an
 * async generator costs the walking thread a promise and a turn of the microtask queue, which taken file
 * by file was much of what the walk cost a search.
 */
export async function* candidateFiles({ root, from, glob, signal, onUnreachable }: CandidateOptions): AsyncGenerator<string[]> {
  const matches = glob ? globTest(glob) : null;
  const prefix = from ? from.length + 1 : 0;
  for await (const run of walkFileRuns(root, { from, signal, onUnreachable })) {
    const files: string[] = [];
    for (const { relPath, dirent } of run) {
      if (dirent.isFile() && (!matches || matches(relPath.slice(prefix)))) files.push(relPath);
    }
    if (files.length > 0) yield files;
  }
}

function globTest(glob: string): (relPath: string) => boolean {
  const pattern = glob.replace(/^\.\//, '');
  const test = picomatch(pattern, { dot: true });
  if (pattern.includes('/')) return test;
  return (relPath) => test(relPath.slice(relPath.lastIndexOf('/') + 1));
}
