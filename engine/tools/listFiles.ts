import type { Dirent } from 'node:fs';
import { readlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { IgnoreRules } from '../workspace/ignoreRules.js';
import { hiddenDirectories } from '../workspace/pathRules.js';
import { SkippedSubtrees } from '../workspace/unreachable.js';
import { walkFiles } from '../workspace/walkFiles.js';
import type { Workspace } from '../workspace/workspace.js';
import { counted } from './counted.js';
import { listableFolder, type ListableFolder } from './folderArgument.js';
import { contextResultChars } from './resultCap.js';
import { defineTool } from './tool.js';
import { shownName } from '../workspace/shownName.js';

const maxEntries = 1000;
/** Keeps the whole result inside what the model sees of it, closing note included. */
const maxChars = contextResultChars - 1000;
const ignoredNamesShown = 10;

export const listFiles = defineTool({
  name: 'list_files',
  description:
    'List a folder. By default its direct entries in name order, folders ending in "/"; with recursive=true every file ' +
    'below it, as paths relative to that folder. Files ignored by .gitignore are left out, and .git/ and .workbench/ ' +
    `are never listed. Symlinks are shown as "name@ -> target" and never followed. At most ${maxEntries.toLocaleString('en-US')} ` +
    'entries; a closing line says how many more there are. For an overview of a large folder with sizes, use get_file_map.',
  parameters: z.object({
    path: z.string().default('.').describe('Folder to list, relative to the project folder. Default "." (the project folder itself).'),
    recursive: z.boolean().default(false).describe('true: every file below the folder, at any depth. false (default): only its direct entries.'),
  }),
  mutates: false,
  async run({ path: requested, recursive }, { workspace, signal }) {
    const folder = await listableFolder(workspace, requested);
    const lines = recursive ? await allFiles(workspace, folder, signal) : await directEntries(workspace, folder);
    const note = folder.ignored ? [`Note: ${requested} is ignored by .gitignore; it is listed because it was asked for by name.`] : [];
    return { text: [...lines, ...note].join('\n') };
  },
});

async function directEntries(workspace: Workspace, { target, ignored }: ListableFolder): Promise<string[]> {
  const rules = ignored ? IgnoreRules.none.enter(workspace.root, target.rel) : workspace.ignoreRulesFor(target.rel);
  const shown: Dirent[] = [];
  const left: string[] = [];
  const entries = (await workspace.list(target)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.isDirectory() && hiddenDirectories.has(entry.name)) continue;
    const relPath = target.rel ? `${target.rel}/${entry.name}` : entry.name;
    if (rules.ignores(relPath, entry.isDirectory())) left.push(entry.isDirectory() ? `${entry.name}/` : entry.name);
    else shown.push(entry);
  }
  const output = new BoundedLines();
  for (const entry of shown) {
    const relPath = target.rel ? `${target.rel}/${entry.name}` : entry.name;
    if (!output.add(await entryLine(workspace, entry, entry.name, relPath))) break;
  }
  const header = shown.length
    ? `${target.requested} (${counted(shown.length, 'entry', 'entries')}):`
    : left.length
      ? `${target.requested} has only entries that .gitignore ignores.`
      : `${target.requested} is empty.`;
  const more = shown.length - output.lines.length;
  return [
    header,
    ...output.lines,
    ...(more ? [`… ${counted(more, 'more entry', 'more entries')} not shown. To narrow: search_files with a glob, or get_file_map for an overview.`] : []),
    ...(left.length ? [ignoredNote(left)] : []),
  ];
}

async function allFiles(workspace: Workspace, { target }: ListableFolder, signal: AbortSignal): Promise<string[]> {
  const prefix = target.rel ? target.rel.length + 1 : 0;
  const output = new BoundedLines();
  const skipped = new SkippedSubtrees(workspace.unreachable.report);
  let total = 0;
  for await (const { relPath, dirent } of walkFiles(workspace.root, { from: target.rel, signal, onUnreachable: skipped.add })) {
    total += 1;
    if (!output.full) output.add(await entryLine(workspace, dirent, relPath.slice(prefix), relPath));
  }
  if (total === 0) return [`No files under ${target.requested} (after .gitignore).`, ...skipped.note()];
  const more = total - output.lines.length;
  const header = more ? `${counted(total, 'file', 'files')} under ${target.requested}, the first ${output.lines.length.toLocaleString('en-US')} shown` : `${counted(total, 'file', 'files')} under ${target.requested}`;
  return [
    `${header} (paths relative to it):`,
    ...output.lines,
    ...(more ? [`… ${counted(more, 'more file', 'more files')} not shown. To narrow: list a subfolder, use get_file_map for an overview, or search_files with a glob.`] : []),
    ...skipped.note(),
  ];
}

/** Lines up to the entry and character limits; `add` says whether the line still fitted. */
class BoundedLines {
  readonly lines: string[] = [];
  private chars = 0;
  full = false;

  add(line: string): boolean {
    if (this.full || this.lines.length >= maxEntries || this.chars + line.length + 1 > maxChars) {
      this.full = true;
      return false;
    }
    this.lines.push(line);
    this.chars += line.length + 1;
    return true;
  }
}

async function entryLine(workspace: Workspace, entry: Dirent, pathShown: string, relPath: string): Promise<string> {
  const name = shownName(pathShown);
  if (entry.isSymbolicLink()) {
    const linkTarget = await readlink(path.join(workspace.root, relPath)).catch(() => null);
    return linkTarget === null ? `${name}@` : `${name}@ -> ${shownName(linkTarget)}`;
  }
  return entry.isDirectory() ? `${name}/` : name;
}

function ignoredNote(names: string[]): string {
  const listed = names.slice(0, ignoredNamesShown).map(shownName).join(', ') + (names.length > ignoredNamesShown ? ', …' : '');
  return `Not shown: ${counted(names.length, 'entry', 'entries')} ignored by .gitignore (${listed}).`;
}
