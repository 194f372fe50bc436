/** The encodings DuckDB's CSV reader decodes itself. */
export type CsvEncoding = 'utf-8' | 'utf-16' | 'latin-1';

export interface DetectedEncoding {
  encoding: CsvEncoding;
  /** Whether the file starts with a byte-order mark. */
  bom: boolean;
}

const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * Judges a file's encoding from its first bytes: a byte-order mark says it outright; text that decodes
 * as UTF-8 is UTF-8 (plain ASCII included); anything else is taken as Latin-1, the usual export of
 * older Windows banking and accounting software (Windows-1252 differs only in 0x80–0x9F, e.g. "€").
 */
export function detectEncoding(head: Uint8Array, { complete }: { complete: boolean }): DetectedEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', bom: true };
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return { encoding: 'utf-16', bom: true };
  return { encoding: isUtf8(complete ? head : withoutCutCharacter(head)) ? 'utf-8' : 'latin-1', bom: false };
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The head without a multi-byte character cut off at its end by the read. */
function withoutCutCharacter(head: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, head.length); back += 1) {
    const byte = head[head.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead byte
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? head.subarray(0, head.length - back) : head;
  }
  return head;
}
