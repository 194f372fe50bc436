import type * as NodeFs from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import type { BatchResult, FileMatches, MatchBatch, MatchJob, MatchWorkerData } from './matchMessages.js';

type Found = Omit<FileMatches, 'path'>;

/** The folder a worker reads a batch's files in (see holdFolders). */
interface HeldFolder {
  /** What to open for `path` (from the root) without following a final link; null when its folder may not be read. */
  pathOf(path: string): string | null;
  release(): void;
}

/** Which file of the search a worker is on, and how many matches it may still take. */
interface Place {
  sequence: number;
  limit: number;
}

export interface MatchWorkerDeps {
  fs: typeof NodeFs;
  port: MessagePort;
  data: MatchWorkerData;
}

/**
 * The body of a search worker thread. It runs from its own source text (see workerSource), so it
 * must stay self-contained: no imports, no module-level values, everything through `deps`. That is
 * what lets the same code run under tsx or vitest and inside the esbuild CJS bundles.
 */
export function runMatchWorker({ fs, port, data }: MatchWorkerDeps): void {
  const progress = new Int32Array(data.progress);
  const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0, O_DIRECTORY = 0 } = fs.constants;
  const openFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
  let buffer = Buffer.allocUnsafe(256 * 1024);
  let search: Prepared | undefined;
  const noMatch: Found = Object.freeze({ lines: [], texts: [] }) as Found;

  interface Prepared {
    job: MatchJob;
    regex: RegExp;
    literals: { bytes: Buffer; anchor: number }[] | null;
    rootPrefix: string;
    claims: Uint8Array;
  }

  port.on('message', (batch: MatchBatch) => {
    if (batch.job.id !== search?.job.id) search = prepare(batch.job);
    const taken = !batch.shared || Atomics.compareExchange(search.claims, batch.id, 0, 1) === 0;
    const result = taken ? searchBatch(search, batch) : { id: batch.id, taken, matches: [], searched: 0, binary: 0, unreadable: 0 };
    Atomics.store(progress, 0, 0);
    port.postMessage(result);
  });

  function prepare(job: MatchJob): Prepared {
    const { regex, root } = job;
    return {
      job,
      regex: new RegExp(regex.source, regex.flags),
      literals: regex.literals && regex.literals.map(({ text, anchor }) => ({ bytes: Buffer.from(text), anchor })),
      rootPrefix: root.endsWith('/') || root.endsWith('\\') ? root : `${root}/`,
      claims: new Uint8Array(job.claims),
    };
  }

  function searchBatch(search: Prepared, batch: MatchBatch): BatchResult {
    const result: BatchResult = { id: batch.id, taken: true, matches: [], searched: 0, binary: 0, unreadable: 0 };
    const folder = holdFolders(search.rootPrefix);
    let found = 0;
    try {
      for (let index = 0; index < batch.files.length && found < search.job.limit; index += 1) {
        if (Atomics.load(progress, 2) === search.job.id) break; // the search has what it needs
        const path = batch.files[index]!;
        const outcome = searchFile(search, folder, path, { sequence: batch.first + index, limit: search.job.limit - found });
        if (outcome === 'binary') result.binary += 1;
        else if (outcome === 'unreadable') result.unreadable += 1;
        else {
          result.searched += 1;
          if (outcome.lines.length > 0) result.matches.push({ path, ...outcome });
          found += outcome.lines.length;
        }
      }
    } finally {
      folder.release();
    }
    return result;
  }

  /**
   * The folder of the files being searched, held open (Linux) and checked once to be inside the root,
   * whatever its path now leads to: each file is then opened in exactly that folder, by
   * /proc/self/fd/<fd>/<name> without following a link, so a folder swapped for a symlink since the walk
   * is caught with one readlink a folder instead of one a file. Without /proc, files are opened by path.
   * (Closures, not a class: the worker runs from this function's source, without the compiler's helpers.)
   */
  function holdFolders(rootPrefix: string): HeldFolder {
    let heldDir: string | null = null;
    let fd = -1;
    /** What names a file of the held folder: `/proc/self/fd/<fd>/`, or its path; null: not to be read. */
    let prefix: string | null = null;
    const release = () => {
      if (fd !== -1) fs.closeSync(fd);
      fd = -1;
      heldDir = null;
    };
    const hold = (relDir: string) => {
      release();
      heldDir = relDir;
      const folderPath = relDir === '' ? rootPrefix : `${rootPrefix}${relDir}/`;
      try {
        fd = fs.openSync(folderPath, O_RDONLY | O_DIRECTORY);
      } catch {
        prefix = null;
        return;
      }
      let real: string;
      try {
        real = fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        prefix = folderPath;
        return;
      }
      prefix = `${real}/`.startsWith(rootPrefix) ? `/proc/self/fd/${fd}/` : null;
    };
    return {
      pathOf(path) {
        const slash = path.lastIndexOf('/');
        const relDir = slash === -1 ? '' : path.slice(0, slash);
        if (relDir !== heldDir) hold(relDir);
        return prefix === null ? null : prefix + path.slice(slash + 1);
      },
      release,
    };
  }

  function searchFile(search: Prepared, folder: HeldFolder, path: string, place: Place): Found | 'binary' | 'unreadable' {
    const at = folder.pathOf(path);
    if (at === null) return 'unreadable';
    let fd: number;
    try {
      fd = fs.openSync(at, openFlags);
    } catch {
      return 'unreadable';
    }
    try {
      const size = ownPlainFileSize(fd);
      return size === null ? 'unreadable' : searchOpenFile(search, fd, size, place);
    } catch {
      return 'unreadable';
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * The size of a regular file with no other name, else null: a hard link's other name may be outside the
   * folder (see Workspace.openForRead). Asked of every file before it is read, whatever it holds, so which
   * files are skipped says nothing about their text.
   */
  function ownPlainFileSize(fd: number): number | null {
    const stats = fs.fstatSync(fd);
    return stats.isFile() && stats.nlink === 1 ? stats.size : null;
  }

  /**
   * Reads the file into the worker's buffer, whole when it fits in `chunkBytes`, else in pieces cut at
   * line ends, and matches each piece. The buffer is grown ahead from the size already asked, so a file
   * that fits is read in one call, and one that grew since is read on in pieces.
   */
  function searchOpenFile(search: Prepared, fd: number, size: number, { sequence, limit }: Place): Found | 'binary' {
    const { job } = search;
    if (size >= buffer.length && buffer.length < job.chunkBytes) buffer = Buffer.allocUnsafe(Math.min(job.chunkBytes, Math.max(size + 1, buffer.length * 2)));
    let found: Found = noMatch; // most files have none: made only for one that may
    let carried = 0;
    let firstLine = 1;
    for (let first = true; ; first = false) {
      Atomics.store(progress, 0, sequence + 1);
      Atomics.store(progress, 1, (Date.now() - data.epoch) | 0);
      const end = carried + fs.readSync(fd, buffer, carried, buffer.length - carried, null);
      const read = buffer.subarray(0, end);
      if (first && isBinary(read, job.sniffLength)) return 'binary';
      const atEnd = end < buffer.length;
      const cut = atEnd ? end : buffer.lastIndexOf(10, end - 1) + 1 || end;
      if (mayMatch(search, read, cut)) {
        if (found === noMatch) found = { lines: [], texts: [] };
        matchLines(search, buffer.toString('utf8', 0, cut), { firstLine, limit, found });
      }
      if (atEnd || found.lines.length >= limit) return found;
      firstLine += countNewlines(cut);
      buffer.copy(buffer, 0, cut, end);
      carried = end - cut;
    }
  }

  /** A NUL among the first `sniffLength` bytes, looked for in those only rather than through the whole file. */
  function isBinary(read: Buffer, sniffLength: number): boolean {
    return (read.length > sniffLength ? read.subarray(0, sniffLength) : read).indexOf(0) !== -1;
  }

  /** Whether the first `end` bytes of what was read hold one of the literals (a byte search through them for each). */
  function mayMatch({ literals }: Prepared, view: Buffer, end: number): boolean {
    if (!literals) return true;
    for (const literal of literals) if (holds(literal, view, end)) return true;
    return false;
  }

  /** Whether the first `end` bytes hold the literal: found by its rarest byte, checked byte by byte. */
  function holds({ bytes, anchor }: { bytes: Buffer; anchor: number }, view: Buffer, end: number): boolean {
    for (let at = view.indexOf(bytes[anchor]!, anchor); at !== -1; at = view.indexOf(bytes[anchor]!, at + 1)) {
      const start = at - anchor;
      if (start + bytes.length > end) return false;
      let same = 0;
      while (same < bytes.length && view[start + same] === bytes[same]) same += 1;
      if (same === bytes.length) return true;
    }
    return false;
  }

  function countNewlines(end: number): number {
    let count = 0;
    for (let at = buffer.indexOf(10); at !== -1 && at < end; at = buffer.indexOf(10, at + 1)) count += 1;
    return count;
  }

  /** Adds the lines of `text` where a match starts; one entry per line however many matches it has. */
  function matchLines({ regex, job }: Prepared, text: string, into: { firstLine: number; limit: number; found: Found }): void {
    const { limit, found } = into;
    regex.lastIndex = 0;
    let line = into.firstLine;
    let lineStart = 0;
    while (found.lines.length < limit) {
      const match = regex.exec(text);
      if (!match) return;
      const at = match.index;
      if (at === text.length && (at === 0 || text.charCodeAt(at - 1) === 10)) return;
      let newline = text.indexOf('\n', lineStart);
      while (newline !== -1 && newline < at) {
        line += 1;
        lineStart = newline + 1;
        newline = text.indexOf('\n', lineStart);
      }
      const lineEnd = newline === -1 ? text.length : newline;
      found.lines.push(line);
      found.texts.push(excerpt(text, { start: lineStart, end: lineEnd, at, maxChars: job.maxLineChars }));
      regex.lastIndex = Math.max(at + match[0].length, lineEnd + 1);
      if (regex.lastIndex > text.length) return;
    }
  }

  /** The line, or for a long one the part around the match, marked with … where cut. */
  function excerpt(text: string, { start, end, at, maxChars }: { start: number; end: number; at: number; maxChars: number }): string {
    const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (stop - start <= maxChars) return text.slice(start, stop);
    const from = Math.max(start, Math.min(at - Math.floor(maxChars / 3), stop - maxChars));
    const to = from + maxChars;
    return `${from > start ? '…' : ''}${text.slice(from, to)}${to < stop ? '…' : ''}`;
  }
}
