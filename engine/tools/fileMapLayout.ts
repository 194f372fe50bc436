import type { FileTreeEntry, FileTreeFolder } from '../workspace/fileTree.js';

export interface FileMapLimits {
  /** Levels of entries shown below the mapped folder: 1 shows only its own entries. */
  depth: number;
  maxLines: number;
  maxChars: number;
}

/** Which parts of the tree the map shows. */
export interface FileMapLayout {
  /** Folders whose entries are shown; every other folder appears collapsed, with its counts. */
  readonly expanded: ReadonlySet<FileTreeFolder>;
  /** How many of the mapped folder's own entries are shown; the rest are summed up in one line. */
  readonly topShown: number;
  /** Some folder was left collapsed because it sits at the depth limit. */
  readonly collapsedByDepth: boolean;
  /** Some folder within the depth limit was left collapsed to stay inside the line or character limit. */
  readonly collapsedForSpace: boolean;
}

/** A generous guess at what a line adds after the name: size, line count, punctuation. */
const annotationChars = 28;
const indentChars = 2;

/**
 * Lays out the map level by level, so deeper levels are the first to stay collapsed. Within a level,
 * the folders with the fewest entries are opened first: one huge folder stays collapsed rather than
 * pushing all its siblings out. Only the mapped folder's own entries are ever cut short.
 */
export function layOutFileMap(top: FileTreeFolder, limits: FileMapLimits): FileMapLayout {
  let lines = limits.maxLines;
  let chars = limits.maxChars;
  const topShown = fittingPrefix(top.entries, { lines, chars });
  for (const entry of top.entries.slice(0, topShown)) {
    lines -= 1;
    chars -= lineCost(entry, 1);
  }
  const expanded = new Set<FileTreeFolder>();
  let collapsedForSpace = false;
  let frontier = folders(top.entries.slice(0, topShown));
  for (let level = 2; level <= limits.depth && frontier.length > 0; level += 1) {
    const next: FileTreeFolder[] = [];
    for (const folder of [...frontier].sort((a, b) => a.entries.length - b.entries.length)) {
      const cost = expansionCost(folder, level);
      if (cost.lines > lines || cost.chars > chars) {
        collapsedForSpace = true;
        continue;
      }
      lines -= cost.lines;
      chars -= cost.chars;
      expanded.add(folder);
      next.push(...folders(folder.entries));
    }
    frontier = next;
  }
  return { expanded, topShown, collapsedByDepth: frontier.length > 0, collapsedForSpace };
}

/** How many leading entries fit, leaving the room of one for "… N more entries" when not all of them do. */
function fittingPrefix(entries: readonly FileTreeEntry[], room: { lines: number; chars: number }): number {
  let { lines, chars } = room;
  let fitting = 0;
  for (const entry of entries) {
    lines -= 1;
    chars -= lineCost(entry, 1);
    if (lines < 0 || chars < 0) return Math.max(0, fitting - 1);
    fitting += 1;
  }
  return fitting;
}

function expansionCost(folder: FileTreeFolder, level: number): { lines: number; chars: number } {
  let chars = 0;
  for (const entry of folder.entries) chars += lineCost(entry, level);
  return { lines: folder.entries.length, chars };
}

function lineCost(entry: FileTreeEntry, level: number): number {
  return (level - 1) * indentChars + entry.name.length + annotationChars;
}

function folders(entries: readonly FileTreeEntry[]): FileTreeFolder[] {
  return entries.filter((entry): entry is FileTreeFolder => entry.type === 'folder');
}

export interface ShownEntry {
  readonly entry: FileTreeEntry;
  /** 1 for the mapped folder's own entries. */
  readonly level: number;
}

/** The entries the map shows, in the order it shows them: each expanded folder followed by its entries. */
export function shownEntries(top: FileTreeFolder, layout: FileMapLayout): ShownEntry[] {
  const shown: ShownEntry[] = [];
  const visit = (entries: readonly FileTreeEntry[], level: number) => {
    for (const entry of entries) {
      shown.push({ entry, level });
      if (entry.type === 'folder' && layout.expanded.has(entry)) visit(entry.entries, level + 1);
    }
  };
  visit(top.entries.slice(0, layout.topShown), 1);
  return shown;
}
