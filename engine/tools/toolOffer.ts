import type { OnUnreachable } from '../workspace/unreachable.js';
import type { ToolOffer } from './phaseTools.js';
import { holdsTableFiles } from './tables/holdsTableFiles.js';

const spreadsheetWords = /\b(xlsx|xlsm|excel|spreadsheets?|workbooks?)\b/i;

/**
 * Which tools a phase offers in the folder at `root` (see isOffered): the table tools where it holds
 * tables, write_xlsx also where `texts` (the request, the plan) ask for a spreadsheet.
 */
export async function toolOfferFor(root: string, texts: readonly string[], options: { signal?: AbortSignal; onUnreachable?: OnUnreachable } = {}): Promise<ToolOffer> {
  return { tables: await holdsTableFiles(root, options), workbooks: asksForWorkbook(texts) };
}

/** Whether one of `texts` (the request, the plan) asks for a spreadsheet. */
export function asksForWorkbook(texts: readonly string[]): boolean {
  return texts.some((text) => spreadsheetWords.test(text));
}
