/**
 * What the engine and a search worker (see matchWorker) send each other. Types only: the worker runs
 * from its function's own source, so nothing it needs at run time may live here.
 */

/** The regex as `new RegExp(source, flags)` takes it; flags always include 'g' and 'm'. */
export interface RegexSpec {
  source: string;
  flags: string;
  /** Texts of which every match contains one (see requiredLiterals); a file with none is not run through the regex. */
  literals: { text: string; /** Offset of its rarest byte (see rarestByteOffset), the one searched for. */ anchor: number }[] | null;
}

/** One search as its workers see it; it comes with every batch, as a worker serves many searches in turn. */
export interface MatchJob {
  /** Tells searches apart, so a worker sets up each regex once. */
  id: number;
  /** Real path of the workspace root; files are opened below it and must still be inside once open. */
  root: string;
  regex: RegexSpec;
  /** Matches a batch needs at most: the files of a batch are contiguous in search order. */
  limit: number;
  maxLineChars: number;
  /** A NUL byte in this many leading bytes makes a file binary. */
  sniffLength: number;
  /** Larger files are read and searched in pieces of about this size, cut at line ends. */
  chunkBytes: number;
  /**
   * One byte a batch (by id), set by the worker that takes it: a shared batch is sent to every worker and
   * searched by the first that reaches it, so a worker held up (a slow file, a thread the machine starves)
   * holds up no batch queued behind it. Batches with ids past its end are sent to one worker only.
   */
  claims: SharedArrayBuffer;
}

export interface MatchWorkerData {
  /**
   * Int32Array [sequence number + 1 of the file being searched (0: idle), when it began: ms since
   * `epoch`, wrapping; the id of a job whose remaining batches are no longer wanted (-1: none)].
   */
  progress: SharedArrayBuffer;
  epoch: number;
}

export interface MatchBatch {
  id: number;
  job: MatchJob;
  /** Sequence number of the first file, for the progress slots. */
  first: number;
  /** Sent to every worker, to be claimed (see MatchJob.claims); else to this one alone. */
  shared: boolean;
  /** Paths from the root, '/' separators. */
  files: string[];
}

export interface FileMatches {
  path: string;
  /** Line numbers (1-based) and their text, in line order. */
  lines: number[];
  texts: string[];
}

export interface BatchResult {
  id: number;
  /** False when another worker claimed the batch first: nothing was searched here. */
  taken: boolean;
  matches: FileMatches[];
  /** Text files searched; the rest of the batch was binary, unreadable, or skipped after `limit`. */
  searched: number;
  binary: number;
  unreadable: number;
}
