import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { readContainedSync } from '../workspace/containedRead.js';
import { lineChanges } from './fileDiff.js';
import type { LineDiff } from './lineDiff.js';
import { textViewOf, type ContentView } from './textContent.js';

/**
 * The diff worker's entry file (see diffThread.ts): reads each job's folder side through the same
 * containment as the engine's own reads, hashes both sides, and counts or aligns their lines.
 */

/** One side of a diff for the worker: bytes read already (a checkpoint's copy), or a file of the folder it reads itself. */
export type DiffJobSide = { bytes: Uint8Array } | { file: string };

export interface DiffJob {
  id: number;
  /** null: the file does not exist on that side. */
  before: DiffJobSide | null;
  after: DiffJobSide | null;
  /** Lines of context around each change (see lineChanges); null: the line counts only. */
  context: number | null;
}

/** A side as the worker found it: its bytes' size and sha256 and its text view, or why it could not be read. */
export type DiffSideResult = { size: number; hash: string; view: ContentView } | { unreadable: string };

export type DiffReply = { id: number; before: DiffSideResult | null; after: DiffSideResult | null; lines: LineDiff | null } | { id: number; error: string };

type Loaded = { unreadable: string } | { bytes: Uint8Array; hash: string; view: ContentView } | null;

function load(side: DiffJobSide | null): Loaded {
  if (!side) return null;
  const bytes = 'bytes' in side ? side.bytes : readContainedSync(side.file);
  if (typeof bytes === 'string') return { unreadable: bytes };
  return { bytes, hash: createHash('sha256').update(bytes).digest('hex'), view: textViewOf(bytes) };
}

function resultOf(side: Loaded): DiffSideResult | null {
  if (side === null || 'unreadable' in side) return side;
  return { size: side.bytes.length, hash: side.hash, view: side.view };
}

function diffJob(job: DiffJob): DiffReply {
  const [before, after] = [load(job.before), load(job.after)];
  const textOf = (side: Loaded) => (side === null ? new Uint8Array(0) : 'view' in side && !('notText' in side.view) ? side.bytes : null);
  const [beforeText, afterText] = [textOf(before), textOf(after)];
  const lines = beforeText !== null && afterText !== null ? lineChanges(beforeText, afterText, job.context) : null;
  return { id: job.id, before: resultOf(before), after: resultOf(after), lines };
}

parentPort?.on('message', (job: DiffJob) => {
  let reply: DiffReply;
  try {
    reply = diffJob(job);
  } catch (error) {
    reply = { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
