import picomatch from 'picomatch';
import { ToolError } from '../tool.js';
import { lexicalPath, refuseHiddenFolder } from '../../workspace/pathRules.js';
import { walkFiles } from '../../workspace/walkFiles.js';
import type { Workspace } from '../../workspace/workspace.js';
import { readableExtensions, tableFormatOf, unreadableTableReason, type TableFormat } from './tableFormats.js';

/** A table file checked through the Workspace: inside the folder, symlinks resolved, a plain file. */
export interface TableFile {
  /** As the model wrote it; messages name this. */
  readonly requested: string;
  /** Relative to the folder, symlinks resolved, '/' separators. */
  readonly rel: string;
  /** The absolute real path DuckDB and the readers open. */
  readonly real: string;
  readonly size: number;
  readonly format: TableFormat;
}

const maxGlobMatches = 1000;

/** A file checked through the Workspace, whatever its format (explicit readers such as read_csv take any). */
export type CheckedFile = Omit<TableFile, 'format'>;

/**
 * Resolves a file named by the model (or by a query) through the Workspace and checks it the way
 * read_file does: inside the folder after every symlink, not in .git/ or .workbench/, a regular file
 * with a single name. Anything else throws a ToolError or PathRefusedError the model can read.
 */
export async function checkedFile(workspace: Workspace, requested: string): Promise<CheckedFile> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(requested)) {
    throw new ToolError(`"${requested}" is a URL; the table tools read only files in the project folder.`);
  }
  const target = await workspace.resolve(requested, 'read');
  refuseHiddenFolder(target, 'read by the table tools');
  const info = await workspace.statIfExists(target);
  if (!info) throw new ToolError(`${requested} does not exist. table_get_map lists the table files in the folder.`);
  if (info.isDirectory()) throw new ToolError(`${requested} is a folder; name a file in it (table_get_map lists them), or a pattern such as "${requested}/*.csv".`);
  // Opening checks what a path alone cannot: a regular file, one name only, and where the descriptor really is.
  await (await workspace.openForRead(target)).close();
  return { requested, rel: target.rel, real: target.real, size: info.size };
}

/** checkedFile, for a file in one of the formats the table tools read. */
export async function checkedTableFile(workspace: Workspace, requested: string): Promise<TableFile> {
  const file = await checkedFile(workspace, requested);
  const format = tableFormatOf(requested) ?? tableFormatOf(file.rel);
  if (format === null) {
    const reason = unreadableTableReason(requested);
    throw new ToolError(reason ? `${requested} is ${reason}.` : `${requested} is not a table file the table tools read (${readableExtensions}).`);
  }
  return { ...file, format };
}

export function isGlob(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

/**
 * The files a glob pattern matches ("data/*.csv", "logs/**\/*.jsonl"), each checked by `check`
 * (checkedTableFile, or checkedFile for any format); .git/, .workbench/ and files .gitignore ignores are not matched.
 */
export async function expandGlob<File extends CheckedFile>(
  workspace: Workspace,
  pattern: string,
  signal: AbortSignal,
  check: (workspace: Workspace, requested: string) => Promise<File>,
): Promise<File[]> {
  const normalised = lexicalPath(pattern, workspace.root);
  const parts = normalised.split('/');
  const firstGlob = parts.findIndex(isGlob);
  const baseRequested = parts.slice(0, firstGlob).join('/');
  const base = await workspace.resolve(baseRequested || '.', 'read');
  refuseHiddenFolder(base, 'read by the table tools');
  const matches = picomatch(parts.slice(firstGlob).join('/'));
  const found: File[] = [];
  try {
    for await (const { relPath } of walkFiles(workspace.root, { from: base.rel, signal, onUnreachable: workspace.unreachable.report })) {
      const inBase = base.rel === '' ? relPath : relPath.slice(base.rel.length + 1);
      if (!matches(inBase)) continue;
      if (found.length === maxGlobMatches) throw new ToolError(`"${pattern}" matches more than ${maxGlobMatches} files; use a narrower pattern.`);
      found.push(await check(workspace, baseRequested ? `${baseRequested}/${inBase}` : inBase));
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ToolError(`${baseRequested} is not a folder in the project, so "${pattern}" matches nothing.`);
    throw error;
  }
  if (found.length === 0) throw new ToolError(`No file matches "${pattern}". table_get_map lists the table files in the folder.`);
  return found;
}
