import type { LineEndings } from '../contract/changes.js';
import { fileKindOf, sniffLength } from '../files/fileKind.js';
import { formatSize } from '../files/fileSize.js';

/** Larger files are shown by their sizes only: a line diff of them would take too long to be worth it. */
export const maxComparedBytes = 32 * 1024 * 1024;

export type Content = { text: string; lines: number; eol: LineEndings } | { notText: string };

/** The text view of a content without the text itself: what a side shows, and what the diff worker sends back. */
export type ContentView = { lines: number; eol: LineEndings } | { notText: string };

// The byte order mark is kept: a change that adds or drops one is a change.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A file's bytes as text to compare line by line, or why they are not: binary (a NUL byte or a known
 * signature in the first 8 KB, as git and the tools judge it), not UTF-8, or too large.
 */
export function contentOf(bytes: Uint8Array): Content {
  if (bytes.length > maxComparedBytes) return { notText: tooLarge(bytes.length) };
  const kind = fileKindOf(bytes.subarray(0, sniffLength));
  if (kind.binary) return { notText: kind.description };
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { notText: 'not UTF-8 text' };
  }
  return { text, lines: lineCount(text), eol: lineEndingsOf(text) };
}

export function tooLarge(bytes: number): string {
  return `too large to compare line by line (${formatSize(bytes)})`;
}

export function lineCount(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return text.endsWith('\n') ? count : count + 1;
}

export function lineEndingsOf(text: string): LineEndings {
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) crlf += 1;
    else lf += 1;
  }
  if (crlf === 0 && lf === 0) return 'none';
  if (crlf === 0) return 'lf';
  return lf === 0 ? 'crlf' : 'mixed';
}
