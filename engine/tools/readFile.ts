import type { FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { sniffFileKind } from '../files/fileKind.js';
import { formatSize } from '../files/fileSize.js';
import { readLines } from './lineReader.js';
import { ToolError, defineTool } from './tool.js';

const defaultLimit = 2000;
const maxLineChars = 2000;
const maxOutputChars = 100_000;
const replacementNote = 'note: this file is not valid UTF-8; bytes that are not are shown as \uFFFD';
const strictDecoder = new TextDecoder('utf-8', { fatal: true });
const lenientDecoder = new TextDecoder('utf-8');

export const readFile = defineTool({
  name: 'read_file',
  description:
    'Read a text file, with line numbers ("   12\\tcode"). Reads up to 2,000 lines at a time; for longer files ' +
    'pass offset (the first line to show, 1-based) and limit to page through. Binary files are refused with their type ' +
    'and size. Use get_file_map or list_files first to find paths, and search_files to find where something is.',
  parameters: z.object({
    path: z.string().describe('File path relative to the project folder, e.g. "src/app.ts".'),
    offset: z.number().int().min(1).optional().describe('First line to show, 1-based. Default 1.'),
    limit: z.number().int().min(1).max(5000).optional().describe(`How many lines to show. Default ${defaultLimit}, at most 5000.`),
  }),
  mutates: false,
  async run({ path, offset = 1, limit = defaultLimit }, { workspace }) {
    const target = await workspace.resolve(path, 'read');
    const info = await workspace.statIfExists(target);
    if (!info) throw new ToolError(`${path} does not exist. Use list_files or get_file_map to see what is there.`);
    if (info.isDirectory()) throw new ToolError(`${path} is a folder, not a file. Use list_files or get_file_map to see its contents.`);
    const handle = await workspace.openForRead(target);
    try {
      const kind = await sniffFileKind(handle);
      if (kind.binary) {
        throw new ToolError(`${path} is a binary file (${kind.description}, ${formatSize(info.size)}); read_file shows text files only.`);
      }
      if (info.size === 0) return { text: `${path} is empty (0 lines).` };
      return { text: await numberedLines(handle, { path, offset, limit }) };
    } finally {
      await handle.close();
    }
  },
});

async function numberedLines(
  handle: FileHandle,
  { path, offset, limit }: { path: string; offset: number; limit: number },
): Promise<string> {
  const shown: string[] = [];
  let lineNumber = 0;
  let chars = 0;
  let invalidUtf8 = false;
  let stoppedAt: number | null = null;
  const last = offset + limit - 1;
  for await (const bytes of readLines(handle)) {
    lineNumber += 1;
    if (lineNumber < offset) continue;
    if (lineNumber > last || chars > maxOutputChars) {
      stoppedAt = lineNumber;
      break;
    }
    const { text, valid } = decode(bytes);
    invalidUtf8 ||= !valid;
    const line = text.length > maxLineChars ? `${text.slice(0, maxLineChars)}… (${text.length - maxLineChars} more characters on this line)` : text;
    shown.push(line);
    chars += line.length + 8;
  }
  if (lineNumber < offset) throw new ToolError(`${path} has ${lineNumber} lines; offset ${offset} is past the end.`);
  const end = offset + shown.length - 1;
  const range =
    stoppedAt === null
      ? `${path}: lines ${offset}–${end} of ${lineNumber}`
      : `${path}: lines ${offset}–${end}; more lines follow (read on with offset ${end + 1})`;
  const width = String(end).length;
  const numbered = shown.map((line, index) => `${String(offset + index).padStart(width)}\t${line}`);
  return [range, ...(invalidUtf8 ? [replacementNote] : []), ...numbered].join('\n');
}

function decode(bytes: Buffer): { text: string; valid: boolean } {
  try {
    return { text: strictDecoder.decode(bytes), valid: true };
  } catch {
    return { text: lenientDecoder.decode(bytes), valid: false };
  }
}
