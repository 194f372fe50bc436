import type { FileHandle } from 'node:fs/promises';
import type { Workspace } from '../workspace/workspace.js';
import { sniffFileKind } from '../files/fileKind.js';
import { countLines } from './lineReader.js';

/** 'uncounted': a text file left out of the byte budget, or one that could not be read. */
export type LineCount = { kind: 'text'; lines: number } | { kind: 'binary' } | { kind: 'uncounted' };

export interface LineCountOptions {
  workspace: Workspace;
  /** Files to judge, by path from the workspace root, with their sizes. */
  files: readonly { relPath: string; size: number }[];
  /** Bytes that may be read for counting in all; the smallest files are counted first. */
  byteBudget: number;
  signal?: AbortSignal;
}

const parallelReads = 8;

/**
 * Whether each file is text or binary and, within the byte budget, how many lines it has. Every file
 * is opened through the workspace, so a file swapped for a symlink since it was listed is not read.
 */
export async function countLinesOf({ workspace, files, byteBudget, signal }: LineCountOptions): Promise<Map<string, LineCount>> {
  const queue = [...files].sort((a, b) => a.size - b.size);
  const counts = new Map<string, LineCount>();
  let budget = byteBudget;
  const work = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      signal?.throwIfAborted();
      const countable = file.size <= budget;
      if (countable) budget -= file.size;
      counts.set(file.relPath, await lineCountOf(workspace, file.relPath, countable));
    }
  };
  await Promise.all(Array.from({ length: parallelReads }, work));
  return counts;
}

async function lineCountOf(workspace: Workspace, relPath: string, countable: boolean): Promise<LineCount> {
  let handle: FileHandle;
  try {
    handle = await workspace.openForRead(await workspace.resolve(relPath, 'read'));
  } catch {
    return { kind: 'uncounted' };
  }
  try {
    if ((await sniffFileKind(handle)).binary) return { kind: 'binary' };
    return countable ? { kind: 'text', lines: await countLines(handle) } : { kind: 'uncounted' };
  } finally {
    await handle.close();
  }
}
