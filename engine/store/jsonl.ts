import { constants } from 'node:fs';
import { createInterface } from 'node:readline';
import type { z } from 'zod';
import { openStateFile, readStateFile, type ReadStateFileOptions } from './stateFile.js';

export interface JsonlRead<T> {
  records: T[];
  /** Byte offset in the file where each record's line starts (parallel to records), so the file can be cut there. */
  offsets: number[];
  /** One readable sentence per line that was skipped. */
  warnings: string[];
  /** Byte length of the intact prefix; a torn last line (no trailing newline, unparsable) lies beyond it. */
  intactBytes: number;
  tornTail: boolean;
}

/**
 * Reads a JSON-lines file written by append. A corrupt line in the middle is skipped with a warning and
 * later lines are kept; an unterminated last line that does not parse is a torn write, reported so the
 * next append can cut it off first. `options.maxBytes` refuses a larger file (StateFileError) unread.
 */
export async function readJsonl<T>(file: string, schema: z.ZodType<T>, label: string, options: ReadStateFileOptions = {}): Promise<JsonlRead<T>> {
  const buffer = await readStateFile(file, options);
  if (buffer === null) return { records: [], offsets: [], warnings: [], intactBytes: 0, tornTail: false };
  const records: T[] = [];
  const offsets: number[] = [];
  const warnings: string[] = [];
  let offset = 0;
  let lineNumber = 0;
  let tornTail = false;
  while (offset < buffer.length) {
    const newline = buffer.indexOf(0x0a, offset);
    const end = newline === -1 ? buffer.length : newline;
    const text = buffer.subarray(offset, end).toString('utf8').trim();
    lineNumber += 1;
    if (text) {
      const record = parseLine(text, schema);
      if (record.ok) {
        records.push(record.value);
        offsets.push(offset);
      } else if (newline === -1) {
        tornTail = true;
        warnings.push(`${label}: line ${lineNumber} is an incomplete write and will be cut off (${record.error})`);
        break;
      } else warnings.push(`${label}: skipped corrupt line ${lineNumber} (${record.error})`);
    }
    offset = newline === -1 ? buffer.length : newline + 1;
  }
  return { records, offsets, warnings, intactBytes: tornTail ? offset : buffer.length, tornTail };
}

/**
 * The bytes of a JSON-lines file up to its last complete line (to keep a copy of it); null when there is
 * none. A torn last line (a write cut short) is left out; a corrupt line within is kept as it is.
 */
export async function intactJsonlBytes<T>(file: string, schema: z.ZodType<T>, label: string, maxBytes: number): Promise<Buffer | null> {
  const buffer = await readStateFile(file, { maxBytes });
  if (buffer === null) return null;
  const { intactBytes } = await readJsonl(file, schema, label, { maxBytes });
  return buffer.subarray(0, Math.min(intactBytes, buffer.length));
}

/**
 * The first record `isTarget` accepts, or null. Reads the file as a stream, so a large log is never held
 * whole; lines that do not parse are passed over.
 */
export async function findJsonl<T>(file: string, schema: z.ZodType<T>, isTarget: (record: T) => boolean): Promise<T | null> {
  for await (const record of streamJsonl(file, schema)) if (isTarget(record)) return record;
  return null;
}

/**
 * Every record `isTarget` accepts, in file order, read as a stream like findJsonl. Only lines holding
 * `hint` are parsed at all, when given: a cheap test that spares parsing a long log's other lines.
 */
export async function filterJsonl<T>(file: string, schema: z.ZodType<T>, isTarget: (record: T) => boolean, hint?: string): Promise<T[]> {
  const found: T[] = [];
  for await (const record of streamJsonl(file, schema, hint)) if (isTarget(record)) found.push(record);
  return found;
}

async function* streamJsonl<T>(file: string, schema: z.ZodType<T>, hint?: string): AsyncGenerator<T> {
  let handle;
  try {
    handle = await openStateFile(file, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const input = handle.createReadStream();
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (hint !== undefined && !line.includes(hint)) continue;
      const record = line.trim() ? parseLine(line.trim(), schema) : null;
      if (record?.ok) yield record.value;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    lines.close();
    input.destroy();
  }
}

function parseLine<T>(text: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'not valid JSON' };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'unexpected shape' };
  return { ok: true, value: parsed.data };
}
