import type { OnUnreachable } from '../../workspace/unreachable.js';
import { walkFiles } from '../../workspace/walkFiles.js';
import { tableFormatOf, unreadableTableReason } from './tableFormats.js';

/** The documents and decks the office style tools read. */
const officeDocument = /\.(docx|docm|dotx|pptx|potx)$/i;

/**
 * Whether the folder holds a file the table and office tools are for: a table they read, one they
 * explain (an .xls, an .ods) or a Word or PowerPoint file. The walk stops at the first.
 */
export async function holdsTableFiles(root: string, options: { signal?: AbortSignal; onUnreachable?: OnUnreachable } = {}): Promise<boolean> {
  for await (const { relPath, dirent } of walkFiles(root, options)) {
    if (dirent.isFile() && (tableFormatOf(relPath) !== null || unreadableTableReason(relPath) !== null || officeDocument.test(relPath))) return true;
  }
  return false;
}
