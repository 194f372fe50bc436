import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

export interface StartupSecrets {
  /** Environment variables whose values are overwritten (the `NAME=` stays). */
  readonly variables: readonly string[];
  /** Values overwritten where an argument is the value (`--api-key sk-…`) or ends in `=value` (`--api-key=sk-…`). */
  readonly argumentValues: readonly string[];
}

/**
 * Overwrites secrets in this process's startup argument and environment blocks: the memory that
 * `/proc/<pid>/cmdline` and `/proc/<pid>/environ` show to any process of the same user, whatever
 * `process.env` says later (a command the agent runs can read `/proc/$PPID/environ`). Linux only; returns
 * how many entries were overwritten, or null where the blocks cannot be reached (another system, or
 * /proc/self/mem closed by the kernel's settings).
 *
 * Safe only for memory nothing reads any more: Node works on its own copy of the arguments (libuv copies
 * them at startup), and the caller unsets the variables first, so `environ` no longer points at them.
 * Entries are matched whole (`NAME=` at an entry's start), never as loose bytes, so a short value cannot
 * hit anything else. The bytes become `*`, keeping the blocks' layout.
 */
export function overwriteStartupBlocks(secrets: StartupSecrets): number | null {
  if (process.platform !== 'linux') return null;
  const blocks = startupBlocks();
  if (!blocks) return null;
  let memory: number;
  try {
    memory = openSync('/proc/self/mem', 'r+');
  } catch {
    return null;
  }
  try {
    const [args, env] = blocks.map((block) => ({ ...block, bytes: read(memory, block) })) as [LoadedBlock, LoadedBlock];
    const spans = [...argumentSpans(args, secrets.argumentValues), ...variableSpans(env, secrets.variables)];
    for (const { at, length } of spans) writeSync(memory, Buffer.alloc(length, '*'), 0, length, at);
    return spans.length;
  } catch {
    return null;
  } finally {
    closeSync(memory);
  }
}

interface Block {
  readonly start: number;
  readonly end: number;
}

interface LoadedBlock extends Block {
  readonly bytes: Buffer;
}

interface Span {
  /** Address of the first byte. */
  readonly at: number;
  readonly length: number;
}

/** arg_start, arg_end, env_start, env_end: fields 48 to 51 of /proc/self/stat (proc(5)), counted after "(comm)". */
function startupBlocks(): [Block, Block] | null {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).trim().split(' ').map(Number);
  const [argStart, argEnd, envStart, envEnd] = fields.slice(45, 49);
  if (argStart === undefined || argEnd === undefined || envStart === undefined || envEnd === undefined) return null;
  if (![argStart, argEnd, envStart, envEnd].every(Number.isSafeInteger) || argEnd < argStart || envEnd < envStart) return null;
  return [
    { start: argStart, end: argEnd },
    { start: envStart, end: envEnd },
  ];
}

function read(memory: number, { start, end }: Block): Buffer {
  const bytes = Buffer.alloc(end - start);
  readSync(memory, bytes, 0, bytes.length, start);
  return bytes;
}

/** The NUL-terminated entries of a block, each with its offset. */
function entriesOf(bytes: Buffer): { offset: number; entry: Buffer }[] {
  const entries: { offset: number; entry: Buffer }[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const end = bytes.indexOf(0, offset);
    const stop = end < 0 ? bytes.length : end;
    entries.push({ offset, entry: bytes.subarray(offset, stop) });
    offset = stop + 1;
  }
  return entries;
}

function variableSpans(block: LoadedBlock, names: readonly string[]): Span[] {
  const prefixes = names.map((name) => Buffer.from(`${name}=`));
  return entriesOf(block.bytes).flatMap(({ offset, entry }) => {
    const prefix = prefixes.find((candidate) => entry.subarray(0, candidate.length).equals(candidate));
    if (!prefix || entry.length === prefix.length) return [];
    return [{ at: block.start + offset + prefix.length, length: entry.length - prefix.length }];
  });
}

/** An argument that is the value (`--api-key sk-…`) or ends in `=value` (`--api-key=sk-…`). */
function argumentSpans(block: LoadedBlock, values: readonly string[]): Span[] {
  const needles = values.filter((value) => value !== '').map((value) => Buffer.from(value));
  return entriesOf(block.bytes).flatMap(({ offset, entry }) => {
    const needle = needles.find((candidate) => entry.equals(candidate) || endsWithAssignment(entry, candidate));
    return needle ? [{ at: block.start + offset + entry.length - needle.length, length: needle.length }] : [];
  });
}

function endsWithAssignment(entry: Buffer, value: Buffer): boolean {
  const at = entry.length - value.length - 1;
  return at >= 0 && entry[at] === 0x3d && entry.subarray(at + 1).equals(value);
}
