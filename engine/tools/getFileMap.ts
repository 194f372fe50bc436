import { readlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { addFileSizes, addSizes, buildFileTree, type FileTreeFile } from '../workspace/fileTree.js';
import { SkippedSubtrees } from '../workspace/unreachable.js';
import { layOutFileMap, shownEntries, type ShownEntry } from './fileMapLayout.js';
import { fileMapText } from './fileMapText.js';
import { listableFolder } from './folderArgument.js';
import { countLinesOf } from './lineCounts.js';
import { contextResultChars } from './resultCap.js';
import { defineTool } from './tool.js';

const defaultDepth = 3;
const maxDepth = 10;
const maxLines = 400;
/** Keeps the whole map inside what the model sees of a result, notes included. */
const maxChars = contextResultChars - 2000;

export interface FileMapCosts {
  /**
   * Up to this many files every one is measured, for folder totals; beyond it only the files shown are.
   * A stat per file costs about as much as the walk itself, and would put a map of a huge tree far
   * behind `rg --files`.
   */
  sizedFilesLimit: number;
  /** Bytes read for line counts in one map, smallest files first; past it files show their size only. */
  lineCountBytes: number;
}

const defaultCosts: FileMapCosts = { sizedFilesLimit: 20_000, lineCountBytes: 32 * 1024 * 1024 };

/** The get_file_map tool; `costs` lets tests reach its limits with small trees. */
export function getFileMapTool(costs: Partial<FileMapCosts> = {}) {
  const { sizedFilesLimit, lineCountBytes } = { ...defaultCosts, ...costs };
  return defineTool({
    name: 'get_file_map',
    description:
      'An overview of a folder to read first: an indented tree with each file’s size and line count (binary files marked) ' +
      'and each folder’s file count and total size. Files ignored by .gitignore are left out, as are .git/ and .workbench/. ' +
      `Folders deeper than \`depth\` are shown collapsed with their totals; a large tree is trimmed to about ${maxLines} lines ` +
      '(deeper levels collapse first) and the result says how to see more. Call it again on a subfolder to look inside.',
    parameters: z.object({
      path: z.string().default('.').describe('Folder to map, relative to the project folder. Default "." (the whole project).'),
      depth: z
        .number()
        .int()
        .min(1)
        .max(maxDepth)
        .default(defaultDepth)
        .describe(`How many levels of entries to show below the folder: 1 shows only its own entries. Default ${defaultDepth}, at most ${maxDepth}.`),
    }),
    mutates: false,
    async run({ path: requested, depth }, { workspace, signal }) {
      const { target, ignored } = await listableFolder(workspace, requested);
      const skipped = new SkippedSubtrees(workspace.unreachable.report);
      const top = await buildFileTree({ root: workspace.root, from: target.rel, signal, onUnreachable: skipped.add });
      const layout = layOutFileMap(top, { depth, maxLines, maxChars });
      const shown = shownEntries(top, layout);
      const files = filesAmong(shown);
      if (top.fileCount <= sizedFilesLimit) addSizes(workspace.root, top);
      else addFileSizes(workspace.root, files);
      const [lineCounts, linkTargets] = await Promise.all([
        countLinesOf({ workspace, files: measured(files), byteBudget: lineCountBytes, signal }),
        linkTargetsOf(workspace.root, shown),
      ]);
      const text = fileMapText({ requested, top, layout, shown, lineCounts, linkTargets, depth, maxDepth, maxLines, ignored, sizedFilesLimit });
      return { text: [text, ...skipped.note()].join('\n') };
    },
  });
}

export const getFileMap = getFileMapTool();

function filesAmong(shown: readonly ShownEntry[]): FileTreeFile[] {
  return shown.flatMap(({ entry }) => (entry.type === 'file' ? [entry] : []));
}

function measured(files: readonly FileTreeFile[]): { relPath: string; size: number }[] {
  return files.flatMap(({ relPath, size }) => (size === null ? [] : [{ relPath, size }]));
}

/** What each shown symlink points at, as written in the link; the target itself is never looked at. */
async function linkTargetsOf(root: string, shown: readonly ShownEntry[]): Promise<Map<string, string>> {
  const targets = new Map<string, string>();
  const links = shown.flatMap(({ entry }) => (entry.type === 'symlink' ? [entry.relPath] : []));
  await Promise.all(
    links.map(async (relPath) => {
      const target = await readlink(path.join(root, relPath)).catch(() => null);
      if (target !== null) targets.set(relPath, target);
    }),
  );
  return targets;
}
