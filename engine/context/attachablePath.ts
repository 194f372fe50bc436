import type { ContextItem } from '../contract/index.js';
import { hiddenDirectories, lexicalPath, PathRefusedError } from '../workspace/pathRules.js';
import { Workspace } from '../workspace/workspace.js';

/** A file or folder item, as attaching a path in the folder makes it. */
export type PathItem = Extract<ContextItem, { kind: 'file' | 'folder' }>;

/** What a path names: an item to attach, nothing at all, or something that may not be attached, with why. */
export type PathLookup = { kind: 'item'; item: PathItem } | { kind: 'missing' } | { kind: 'refused'; reason: string };

/**
 * Judges a path the user wants to attach, as the tools would read it: inside the folder (no `..`, no
 * absolute path, no link leading out), never `.git/` or `.workbench/` (under any name), and a plain file
 * or a folder. The item keeps the path as written, normalised (`./src/` → `src`, the folder itself `.`).
 */
export async function lookUpAttachable(workspace: Workspace, requested: string): Promise<PathLookup> {
  try {
    const lexical = lexicalPath(requested, workspace.root);
    const target = await workspace.resolve(lexical || '.', 'read');
    const hidden = [...lexical.split('/'), ...target.rel.split('/')].find((part) => hiddenDirectories.has(part));
    if (hidden) return { kind: 'refused', reason: `${hidden}/ is never attached; it holds ${hidden === '.git' ? 'git’s own data' : 'the workbench’s own state'}` };
    const stats = await workspace.statIfExists(target);
    if (!stats) return { kind: 'missing' };
    const path = lexical || '.';
    if (stats.isDirectory()) return { kind: 'item', item: { kind: 'folder', path } };
    if (stats.isFile()) return { kind: 'item', item: { kind: 'file', path } };
    return { kind: 'refused', reason: 'it is neither a file nor a folder (a device, socket or pipe)' };
  } catch (error) {
    if (error instanceof PathRefusedError) return { kind: 'refused', reason: error.reason };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    throw error;
  }
}

/** A folder's paths, judged as lookUpAttachable judges them, for a host that has not opened the folder. */
export interface AttachablePaths {
  /** The folder's real path. */
  readonly root: string;
  lookUp(requested: string): Promise<PathLookup>;
}

export async function attachablePaths(folder: string): Promise<AttachablePaths> {
  const workspace = await Workspace.at(folder);
  return { root: workspace.root, lookUp: (requested) => lookUpAttachable(workspace, requested) };
}
