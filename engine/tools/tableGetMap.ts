import { z } from 'zod';
import { checkedTableFile } from './tables/tableFiles.js';
import { readableExtensions, tableFormatOf, unreadableTableReason } from './tables/tableFormats.js';
import { withTables } from './tables/tableRun.js';
import { summariseTableFile, type SummaryBudget } from './tables/tableSummary.js';
import type { TableSources } from './tables/tableSources.js';
import { plural } from './tables/tableText.js';
import { SkippedSubtrees } from '../workspace/unreachable.js';
import { walkFiles } from '../workspace/walkFiles.js';
import { PathRefusedError } from '../workspace/pathRules.js';
import { listableFolder } from './folderArgument.js';
import { ToolError, defineTool } from './tool.js';
import { shownName } from '../workspace/shownName.js';

const maxFiles = 200;
const exactCountBytes = 256 * 1024 * 1024;

export const tableGetMap = defineTool({
  name: 'table_get_map',
  description:
    'List every table file under a folder — CSV/TSV (any delimiter), Excel .xlsx, Parquet, JSON lines — with its size, rows × columns ' +
    'and column names; a workbook with each sheet and its used range. Files ignored by .gitignore are left out, as are .git/ and ' +
    '.workbench/. Start here, then use table_describe on a file.',
  parameters: z.object({
    path: z.string().default('.').describe('Folder to look in, relative to the project folder. Default "." (the whole project).'),
  }),
  mutates: false,
  async run({ path }, context) {
    const { target } = await listableFolder(context.workspace, path);
    const found: string[] = [];
    let more = 0;
    const skipped = new SkippedSubtrees(context.workspace.unreachable.report);
    for await (const { relPath } of walkFiles(context.workspace.root, { from: target.rel, signal: context.signal, onUnreachable: skipped.add })) {
      if (tableFormatOf(relPath) === null && unreadableTableReason(relPath) === null) continue;
      if (found.length === maxFiles) more += 1;
      else found.push(relPath);
    }
    if (found.length === 0) return { text: [`No table files under ${path} (looked for ${readableExtensions}; .gitignore honoured).`, ...skipped.note()].join('\n') };
    const lines = await withTables(context, async (tables) => {
      const budget = { exactCountBytes };
      const summaries: string[] = [];
      for (const relPath of found) summaries.push(await lineFor(tables, relPath, budget));
      return summaries;
    });
    const heading = `${plural(found.length + more, 'table file')} under ${path} (.gitignore honoured):`;
    const moreLine = more > 0 ? [`… and ${plural(more, 'more file')}: call table_get_map on a subfolder to see them.`] : [];
    return { text: [heading, ...lines, ...moreLine, ...skipped.note()].join('\n') };
  },
});

/** A file's line; a file that cannot be read is listed with the reason, and the map goes on. */
async function lineFor(tables: TableSources, relPath: string, budget: SummaryBudget): Promise<string> {
  const unreadable = unreadableTableReason(relPath);
  if (unreadable) return `${shownName(relPath)} — ${unreadable}`;
  try {
    return await summariseTableFile(tables, await checkedTableFile(tables.workspace, relPath), budget);
  } catch (error) {
    if (tables.signal.aborted || !(error instanceof Error)) throw error;
    const reason = error instanceof ToolError || error instanceof PathRefusedError ? error.message : error.message.split('\n')[0];
    return `${shownName(relPath)} — not read: ${reason}`;
  }
}
