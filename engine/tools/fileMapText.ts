import type { FileTreeEntry, FileTreeFolder } from '../workspace/fileTree.js';
import { counted } from './counted.js';
import { formatSize } from '../files/fileSize.js';
import { type FileMapLayout, type ShownEntry } from './fileMapLayout.js';
import type { LineCount } from './lineCounts.js';
import { shownName } from '../workspace/shownName.js';

export interface FileMapText {
  /** The folder as the model named it. */
  requested: string;
  top: FileTreeFolder;
  layout: FileMapLayout;
  shown: readonly ShownEntry[];
  lineCounts: ReadonlyMap<string, LineCount>;
  linkTargets: ReadonlyMap<string, string>;
  depth: number;
  maxDepth: number;
  maxLines: number;
  /** Whether .gitignore ignores the mapped folder itself (mapped anyway: it was asked for by name). */
  ignored: boolean;
  /** Above this many files, folder sizes are not added up. */
  sizedFilesLimit: number;
}

/** The map as the model reads it: a header, one indented line per shown entry, then what was left out. */
export function fileMapText(map: FileMapText): string {
  const { requested, top, layout, shown } = map;
  const size = top.totalSize === null ? `, too many to add up folder sizes (over ${map.sizedFilesLimit.toLocaleString('en-US')})` : `, ${formatSize(top.totalSize)} in all`;
  const header = `${requested}: ${counted(top.fileCount, 'file', 'files')}${size}; files ignored by .gitignore are left out`;
  const lines = [header, ...shown.map(({ entry, level }) => '  '.repeat(level - 1) + entryText(entry, map))];
  const hidden = top.entries.slice(layout.topShown);
  if (hidden.length > 0) lines.push(moreEntries(hidden));
  return [...lines, ...notes(map, hidden.length > 0)].join('\n');
}

function entryText(entry: FileTreeEntry, map: FileMapText): string {
  switch (entry.type) {
    case 'folder': {
      const size = entry.totalSize === null ? '' : `, ${formatSize(entry.totalSize)}`;
      const totals = `${shownName(entry.name)}/  ${counted(entry.fileCount, 'file', 'files')}${size}`;
      return map.layout.expanded.has(entry) ? totals : `${totals} (collapsed)`;
    }
    case 'symlink': {
      const target = map.linkTargets.get(entry.relPath);
      return target === undefined ? `${shownName(entry.name)}@` : `${shownName(entry.name)}@ -> ${shownName(target)}`;
    }
    case 'other':
      return `${shownName(entry.name)}  (not a regular file)`;
    case 'file':
      if (entry.size === null) return `${shownName(entry.name)}  (could not be read)`;
      return `${shownName(entry.name)}  ${formatSize(entry.size)}${contentText(map.lineCounts.get(entry.relPath))}`;
  }
}

function contentText(count: LineCount | undefined): string {
  if (count?.kind === 'text') return `, ${counted(count.lines, 'line', 'lines')}`;
  if (count?.kind === 'binary') return ', binary';
  return '';
}

function moreEntries(hidden: readonly FileTreeEntry[]): string {
  const folderCount = hidden.filter((entry) => entry.type === 'folder').length;
  const parts = [counted(hidden.length - folderCount, 'file', 'files'), counted(folderCount, 'folder', 'folders')].filter((part) => !part.startsWith('0 '));
  return `… ${counted(hidden.length, 'more entry', 'more entries')} (${parts.join(', ')})`;
}

function notes(map: FileMapText, cutShort: boolean): string[] {
  const lines: string[] = [];
  if (map.ignored) lines.push(`Note: ${map.requested} is ignored by .gitignore; it is mapped because it was asked for by name.`);
  if (cutShort) {
    lines.push(`The entries of ${map.requested} were cut short to keep this map under ${map.maxLines} lines; list_files with path "${map.requested}" lists them.`);
  }
  const collapsed = map.shown.find(({ entry }) => entry.type === 'folder' && !map.layout.expanded.has(entry));
  if (collapsed) {
    const reasons = [
      ...(map.layout.collapsedByDepth ? [`their contents are deeper than depth ${map.depth}`] : []),
      ...(map.layout.collapsedForSpace ? [`their contents did not fit in this map of at most ${map.maxLines} lines`] : []),
    ];
    const larger = map.layout.collapsedByDepth && map.depth < map.maxDepth ? ' or a larger depth' : '';
    lines.push(
      `Folders marked (collapsed) show only their totals: ${reasons.join(', or ')}. To look inside one, call get_file_map with its path ` +
        `(e.g. "${collapsed.entry.relPath}")${larger}, or list_files.`,
    );
  }
  const uncounted = map.shown.some(({ entry }) => entry.type === 'file' && map.lineCounts.get(entry.relPath)?.kind === 'uncounted');
  if (uncounted) lines.push('Files shown with a size only were not read for a line count; get_file_info gives it.');
  return lines;
}
