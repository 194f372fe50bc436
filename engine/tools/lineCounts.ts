import { lstatSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { racyWindowMs } from '../checkpoints/statRecord.js';
import { SmallFileReader } from '../workspace/smallFileReader.js';
import type { Workspace } from '../workspace/workspace.js';
import { fileKindOf, sniffFileKind, sniffLength } from '../files/fileKind.js';
import { countLines, linesIn } from './lineReader.js';

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
/** Files up to this size are read and counted in one synchronous go (see SmallFileReader); larger ones asynchronously. */
const oneReadBytes = 256 * 1024;
/** How long synchronous reads may keep the engine's thread before other work gets a turn. */
const turnMs = 10;
/** Files whose kind and line count are remembered, per workspace; past it the earliest counted are forgotten. */
const keptCounts = 20_000;

/**
 * What earlier maps of each workspace found, by path, with the file's stamp (device, inode, size and
 * times) then: a file with the same stamp has the same bytes, so the file map every plan item starts from
 * opens only what changed since the last one instead of every file shown. As for checkpoints, a file
 * stamped within a tick or two of its count (racyWindowMs) is not remembered: it could change unseen.
 */
const knownCounts = new WeakMap<Workspace, Map<string, { stamp: string; count: LineCount & { kind: 'text' | 'binary' } }>>();

/**
 * Whether each file is text or binary and, within the byte budget, how many lines it has. Every file
 * is opened through the workspace, so a file swapped for a symlink since it was listed is not read.
 */
export async function countLinesOf({ workspace, files, byteBudget, signal }: LineCountOptions): Promise<Map<string, LineCount>> {
  const queue = [...files].sort((a, b) => a.size - b.size);
  const counts = new Map<string, LineCount>();
  const reader = SmallFileReader.open(workspace.root);
  let budget = byteBudget;
  let turnStart = performance.now();
  const work = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      signal?.throwIfAborted();
      if (performance.now() - turnStart > turnMs) {
        await nextTurn();
        signal?.throwIfAborted();
        turnStart = performance.now();
      }
      const countable = file.size <= budget;
      if (countable) budget -= file.size;
      const smallReader = file.size <= oneReadBytes ? reader : null;
      counts.set(file.relPath, await lineCountOf(workspace, file.relPath, countable ? smallReader : false));
    }
  };
  try {
    await Promise.all(Array.from({ length: parallelReads }, work));
  } finally {
    reader?.close();
  }
  return counts;
}

/** `reader`: the file may be read and counted (within the byte budget), through the reader when given (a small file); false: judged, not counted. */
async function lineCountOf(workspace: Workspace, relPath: string, reader: SmallFileReader | null | false): Promise<LineCount> {
  let known = knownCounts.get(workspace);
  if (!known) knownCounts.set(workspace, (known = new Map()));
  const countable = reader !== false;
  const startedAt = Date.now();
  const stamp = stampOf(workspace.root, relPath);
  const before = stamp && known.get(relPath);
  if (stamp && before?.stamp === stamp.text) return countable || before.count.kind === 'binary' ? before.count : { kind: 'uncounted' };
  const read = reader ? reader.read(relPath, oneReadBytes) : null;
  const count = read ? countOf(read) : await readLineCount(workspace, relPath, countable);
  if (stamp && stamp.changedAt < startedAt - racyWindowMs(stamp.changedAt) && count.kind !== 'uncounted') {
    known.delete(relPath);
    if (known.size >= keptCounts) known.delete(known.keys().next().value as string);
    known.set(relPath, { stamp: stamp.text, count });
  }
  return count;
}

/** A whole file's kind and lines, as readLineCount judges and counts them. */
function countOf(bytes: Buffer): LineCount {
  if (fileKindOf(bytes.subarray(0, sniffLength)).binary) return { kind: 'binary' };
  return { kind: 'text', lines: linesIn(bytes) };
}

/**
 * A regular file's identity and version as lstat tells it (synchronous: a couple of microseconds, less
 * than a thread-pool round trip); null for anything else, whose count is never remembered (a symlink's
 * stamp would not change with its target).
 */
function stampOf(root: string, relPath: string): { text: string; changedAt: number } | null {
  try {
    const stats = lstatSync(`${root}/${relPath}`);
    if (!stats.isFile()) return null;
    return { text: `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`, changedAt: Math.max(stats.mtimeMs, stats.ctimeMs) };
  } catch {
    return null;
  }
}

async function readLineCount(workspace: Workspace, relPath: string, countable: boolean): Promise<LineCount> {
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
