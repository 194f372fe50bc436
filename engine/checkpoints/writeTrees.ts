import type { Fingerprint } from './fingerprint.js';
import type { HashedFiles } from './hashedFiles.js';
import { encodeTree, entryFor, type EncodedTree, type TreeEntry } from './treeNode.js';
import { deepestFirst, nameOf, parentOf, type WorkspaceState } from './workspaceState.js';

/** Each folder's stored listing ('' for the root) and how many entries it has. */
export type TreeIndex = Map<string, { hash: string; childCount: number }>;

/** A checkpoint's workspace together with the listings that store it. */
export interface StoredState {
  state: WorkspaceState;
  index: TreeIndex;
}

/**
 * Stores a fingerprinted workspace as one listing per folder, content-addressed like git trees, and
 * returns the root's hash. A folder none of whose files changed, with as many entries as in the base and
 * the same subfolders, keeps the base's listing without being serialised again: a snapshot with ten
 * changed files writes the listings of those folders and their ancestors, not those of the other 1,700.
 */
export function writeTrees(found: Fingerprint, base: StoredState | null, trees: HashedFiles): { root: string; index: TreeIndex } {
  const { state, listing, changed } = found;
  const dirty = new Set(changed.map(parentOf));
  const index: TreeIndex = new Map();
  const toWrite: EncodedTree[] = [];
  for (const folder of [...deepestFirst(state.folders), '']) {
    const { files, folders } = listing.get(folder)!;
    const childCount = files.length + folders.length;
    const previous = base?.index.get(folder);
    const unchanged =
      previous !== undefined &&
      !dirty.has(folder) &&
      previous.childCount === childCount &&
      folders.every((subfolder) => index.get(subfolder)!.hash === base!.index.get(subfolder)?.hash && state.folderModes?.get(subfolder) === base!.state.folderModes?.get(subfolder));
    if (unchanged) {
      index.set(folder, previous);
      continue;
    }
    const entries: TreeEntry[] = [
      ...files.map((file) => entryFor(nameOf(file), state.files.get(file)!)),
      ...folders.map((subfolder): TreeEntry => {
        const mode = state.folderModes?.get(subfolder);
        return { name: nameOf(subfolder), type: 'folder', tree: index.get(subfolder)!.hash, ...(mode === undefined ? {} : { mode }) };
      }),
    ];
    const encoded = encodeTree(entries);
    toWrite.push(encoded);
    index.set(folder, { hash: encoded.hash, childCount });
  }
  for (const { hash, bytes } of toWrite) trees.putBytes(hash, bytes);
  return { root: index.get('')!.hash, index };
}
