import { isUtf8 } from 'node:buffer';
import type { LineEndings } from '../contract/changes.js';
import { fileKindOf, sniffLength } from '../files/fileKind.js';
import { formatSize } from '../files/fileSize.js';

/** Larger files are shown by their sizes only: a line diff of them would take too long to be worth it. */
export const maxComparedBytes = 32 * 1024 * 1024;

/** The text view of a content without the text itself: what a side shows, and what the diff worker sends back. */
export type ContentView = { lines: number; eol: LineEndings } | { notText: string };

// The byte order mark is kept: a change that adds or drops one is a change. Fatal, though the bytes are
// known to be UTF-8 (isUtf8) by then: a decoder that replaced anything would change the text compared.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const [newline, carriageReturn] = [10, 13];

/** Bytes textViewOf found to be text, as that text. */
export function decodeText(bytes: Uint8Array): string {
  return strictUtf8.decode(bytes);
}

/**
 * A file's bytes as text to compare line by line (their lines and line endings), or why they are not:
 * binary (a NUL byte or a known signature in the first 8 KB, as git and the tools judge it), not UTF-8,
 * or too large. Nothing is decoded: a line break is the byte 10 in UTF-8, never part of another
 * character, so lines are counted on the bytes.
 */
export function textViewOf(bytes: Uint8Array): ContentView {
  if (bytes.length > maxComparedBytes) return { notText: tooLarge(bytes.length) };
  const kind = fileKindOf(bytes.subarray(0, sniffLength));
  if (kind.binary) return { notText: kind.description };
  if (!isUtf8(bytes)) return { notText: 'not UTF-8 text' };
  let [crlf, lf] = [0, 0];
  for (let at = bytes.indexOf(newline); at !== -1; at = bytes.indexOf(newline, at + 1)) {
    if (at > 0 && bytes[at - 1] === carriageReturn) crlf += 1;
    else lf += 1;
  }
  const unbroken = bytes.length > 0 && bytes[bytes.length - 1] !== newline ? 1 : 0;
  return { lines: crlf + lf + unbroken, eol: crlf === 0 && lf === 0 ? 'none' : crlf === 0 ? 'lf' : lf === 0 ? 'crlf' : 'mixed' };
}

export function tooLarge(bytes: number): string {
  return `too large to compare line by line (${formatSize(bytes)})`;
}
