import type * as NodeCrypto from 'node:crypto';
import type * as NodeFs from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import type { LineDiff } from './lineDiff.js';
import type { Content, ContentView } from './textContent.js';

/** One side of a diff for the worker: bytes read already (a checkpoint's copy), or a file of the folder it reads itself. */
export type DiffJobSide = { bytes: Uint8Array } | { file: string };

export interface DiffJob {
  id: number;
  /** null: the file does not exist on that side. */
  before: DiffJobSide | null;
  after: DiffJobSide | null;
  context: number;
}

/** A side as the worker found it: its bytes' size and sha256 and its text view, or why it could not be read. */
export type DiffSideResult = { size: number; hash: string; view: ContentView } | { unreadable: string };

export type DiffReply = { id: number; before: DiffSideResult | null; after: DiffSideResult | null; lines: LineDiff | null } | { id: number; error: string };

export interface DiffWorkerTools {
  fs: typeof NodeFs;
  crypto: typeof NodeCrypto;
  port: MessagePort;
  readContained: (fs: typeof NodeFs, file: string) => Uint8Array | string;
  decode: (bytes: Uint8Array) => Content;
  diff: (before: string, after: string, options: { context: number }) => LineDiff;
}

/**
 * The diff worker's loop: reads each job's folder side through the same containment as the engine's
 * own reads, hashes and decodes both sides, and aligns their lines. Self-contained, everything it uses
 * given: the worker runs it from its source text (see diffThread.ts).
 */
export function runDiffWorker({ fs, crypto, port, readContained, decode, diff }: DiffWorkerTools): void {
  port.on('message', (job: DiffJob) => {
    try {
      type Loaded = { unreadable: string } | { bytes: Uint8Array; hash: string; content: Content } | null;
      const load = (side: DiffJobSide | null): Loaded => {
        if (!side) return null;
        const bytes = 'bytes' in side ? side.bytes : readContained(fs, side.file);
        if (typeof bytes === 'string') return { unreadable: bytes };
        return { bytes, hash: crypto.createHash('sha256').update(bytes).digest('hex'), content: decode(bytes) };
      };
      const [before, after] = [load(job.before), load(job.after)];
      const textOf = (side: Loaded) => (side === null ? '' : 'content' in side && 'text' in side.content ? side.content.text : null);
      const [beforeText, afterText] = [textOf(before), textOf(after)];
      const lines = beforeText !== null && afterText !== null ? diff(beforeText, afterText, { context: job.context }) : null;
      const result = (side: Loaded): DiffSideResult | null => {
        if (side === null || 'unreadable' in side) return side;
        const view: ContentView = 'notText' in side.content ? { notText: side.content.notText } : { lines: side.content.lines, eol: side.content.eol };
        return { size: side.bytes.length, hash: side.hash, view };
      };
      port.postMessage({ id: job.id, before: result(before), after: result(after), lines } satisfies DiffReply);
    } catch (error) {
      port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies DiffReply);
    }
  });
}
