import type { PendingWrites } from '../store/pendingWrites.js';
import { UnreachableSubtrees, type OnUnreachable, type UnreachableSubtree } from '../workspace/unreachable.js';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { SerialQueue } from '../store/serialQueue.js';
import { applyRestore } from './applyRestore.js';
import { CheckpointError, checkpointTagSchema, type CheckpointInfo, type CheckpointTag, type RestoreChange } from './checkpointTypes.js';
import { collectGarbage } from './collectGarbage.js';
import { fingerprint } from './fingerprint.js';
import { HashedFiles } from './hashedFiles.js';
import { readLatestCheckpoint, type LatestCheckpoint, type StoreFolders } from './latestCheckpoint.js';
import { Manifests, infoOf, isCheckpointId, type Manifest } from './manifests.js';
import { addPresentButIgnored } from './presentButIgnored.js';
import { readState } from './readTrees.js';
import { restatPaths, type SeenFolder } from './restatPaths.js';
import { planRestore, type RestorePlan } from './restorePlan.js';
import { scanWorkspace, type ListingCache, type WorkspaceScan } from './scanWorkspace.js';
import { isHiddenName, recordedFileCount, type FileContentRecord, type FileRecord, type WorkspaceState } from './workspaceState.js';
import { writeTrees, type StoredState } from './writeTrees.js';

export { CheckpointError, type CheckpointInfo, type CheckpointTag, type RestoreChange } from './checkpointTypes.js';

/** A checkpoint's files as readCheckpoint gives them. */
export interface CheckpointContents {
  /** Files and symlinks by path ('/' separators); 'unrecorded' for what could not be read then. */
  readonly files: ReadonlyMap<string, FileRecord>;
  readonly folders: ReadonlySet<string>;
  /** The bytes of a recorded file, as stored. */
  read(record: FileContentRecord): Promise<Buffer>;
}

/** Notes kept per checkpoint; a build churning through thousands of files would otherwise fill the manifest. */
const maxNotes = 20;
/** Checkpoint workspaces kept read back: the ends of a few requests' changes. */
const keptStates = 4;

/**
 * Snapshots of a project folder for undo, kept in `<stateDir>/checkpoints/`:
 *
 *     manifests/<id>.json   one per checkpoint: tag, counts, notes, and the hash of the root folder's listing
 *     trees/abcdef…         one listing per folder (names, modes, hashes, lstat fields), by sha256
 *     objects/abcdef…       file contents, by sha256
 *
 * (`.gz` added to what is stored gzipped; stores written before keep theirs under `ab/cdef…`, still read:
 * see HashedFiles.)
 *
 * A snapshot reads only the files whose size, times or inode changed since the latest checkpoint, stores
 * only contents and listings not stored yet, and never looks inside .git/, .workbench/ or what .gitignore
 * excludes. Snapshots, restores and collection run one at a time.
 */
export class CheckpointStore {
  private readonly queue = new SerialQueue();
  /** The newest checkpoint as the next snapshot builds on it; undefined until read from disk. */
  private latest: LatestCheckpoint | null | undefined;
  /** How the last scan sorted out each folder, to skip that work where nothing changed. */
  private listingCache: ListingCache | undefined;
  /**
   * Checkpoint workspaces read back, by the hash of their root listing (which names their content for
   * good): a list of changes reads the checkpoint before the request, compares the folder with it and
   * builds on the latest one, often all the same, and a run compares after every tool call.
   */
  private readonly states = new Map<string, Promise<StoredState>>();
  /**
   * The folder as the last scan found it (a snapshot's or a comparison's): a comparison reads again only
   * the files whose lstat changed since, rather than every file changed since the latest snapshot.
   */
  private lastSeen: WorkspaceState | undefined;
  /**
   * The last scan's findings and how it sorted out each folder, while nothing but tool calls the caller
   * names can have changed the folder since (a restore writes it itself): see changesSince's `changedPaths`.
   */
  private seen: SeenFolder | null = null;
  /** Work done so far, for the tests that hold the store to doing each piece once. */
  readonly work = { scans: 0, filesHashed: 0, listingsRead: 0 };
  /** Manifest files read from disk so far (see `work`). */
  get manifestsRead(): number {
    return this.folders.manifests.filesRead;
  }

  private constructor(
    private readonly root: string,
    private readonly folders: StoreFolders,
    /** Where a restore journals the temp files it puts beside the files it brings back. */
    private readonly pending: PendingWrites | null,
    /** Told of what a scan cannot reach; a restore says it left that as it was. */
    private readonly unreachable: UnreachableSubtrees,
  ) {}

  /** `root`: the real path of the project folder. The store lives in `<stateDir>/checkpoints`. */
  static async open(
    root: string,
    stateDir: string,
    { pending = null, unreachable = new UnreachableSubtrees() }: { pending?: PendingWrites | null; unreachable?: UnreachableSubtrees } = {},
  ): Promise<CheckpointStore> {
    const dir = path.resolve(stateDir, 'checkpoints');
    refuseStoreInsideWorkspace(root, dir);
    const manifests = new Manifests(path.join(dir, 'manifests'));
    await mkdir(manifests.dir, { recursive: true });
    await manifests.removeStaleTempFiles();
    return new CheckpointStore(root, { manifests, trees: new HashedFiles(path.join(dir, 'trees')), objects: new HashedFiles(path.join(dir, 'objects')) }, pending, unreachable);
  }

  snapshot(tag: CheckpointTag, signal?: AbortSignal): Promise<CheckpointInfo> {
    return this.queue.run(() => this.takeSnapshot(checkpointTagSchema.parse(tag), signal));
  }

  /**
   * What restore(id) would change, in path order, changing nothing (for a confirmation). `forUndo`: an undo
   * goes by it, so what cannot be reached is said to be left as it was, as restore says. `changedPaths`:
   * the caller knows these files are all that changed since the store last looked at the folder (a tool
   * call's write, say); they are looked at again instead of the whole folder, where that finds the same.
   */
  changesSince(id: string, { forUndo = false, changedPaths }: { forUndo?: boolean; changedPaths?: readonly string[] } = {}): Promise<RestoreChange[]> {
    return this.queue.run(async () => {
      const left: UnreachableSubtree[] = [];
      const { changes } = await this.planRestoreTo(id, forUndo ? (subtree) => left.push(subtree) : this.unreachable.report, changedPaths);
      this.unreachable.undoLeft(left);
      return changes;
    });
  }

  /**
   * Brings the folder back to checkpoint `id`, byte for byte and mode for mode; returns what changed.
   * What cannot be reached now is left as it is, with a warning naming it.
   */
  restore(id: string): Promise<RestoreChange[]> {
    return this.queue.run(async () => {
      const left: UnreachableSubtree[] = [];
      const plan = await this.planRestoreTo(id, (subtree) => left.push(subtree));
      this.seen = null;
      const changes = await applyRestore({ root: this.root, plan, objects: this.folders.objects, journal: this.pending });
      this.unreachable.undoLeft(left);
      return changes;
    });
  }

  /**
   * What checkpoint `id` recorded, for diffs and single-file reverts: each file's record by path, every
   * folder, and a reader of a recorded file's bytes. Reading nothing else, it changes nothing.
   */
  readCheckpoint(id: string): Promise<CheckpointContents> {
    return this.queue.run(async () => {
      const { state } = await this.stateOf((await this.readManifest(id)).root);
      const objects = this.folders.objects;
      return { files: state.files, folders: state.folders, read: (record) => objects.read(record.hash, record.size) };
    });
  }

  /** Every checkpoint, oldest first. */
  async list(): Promise<CheckpointInfo[]> {
    return (await this.folders.manifests.readAll()).map(infoOf);
  }

  /** Deletes the checkpoints keep() rejects and every object no remaining checkpoint references. */
  collect(keep: (info: CheckpointInfo) => boolean): Promise<{ removedCheckpoints: number; removedObjects: number }> {
    return this.queue.run(async () => {
      const { removedCheckpoints, removedObjects, removedIds } = await collectGarbage({ ...this.folders, keep });
      if (this.latest && removedIds.includes(this.latest.id)) this.latest = undefined;
      return { removedCheckpoints, removedObjects };
    });
  }

  private async takeSnapshot(tag: CheckpointTag, signal?: AbortSignal): Promise<CheckpointInfo> {
    const startedAt = Date.now();
    const latest = await this.latestCheckpoint();
    const scan = await this.scan({ signal, onUnreachable: this.unreachable.report });
    const found = await fingerprint({ root: this.root, scan, base: latest?.stored?.state ?? null, objects: this.folders.objects, startedAt, signal });
    signal?.throwIfAborted();
    this.work.filesHashed += found.hashedFiles;
    const { root, index } = writeTrees(found, latest?.stored ?? null, this.folders.trees);
    const id = this.folders.manifests.nextId(latest?.id ?? null);
    const notes = found.notes.length > maxNotes ? [...found.notes.slice(0, maxNotes), `…and ${found.notes.length - maxNotes} more like these.`] : found.notes;
    const manifest: Manifest = {
      version: 1,
      id,
      createdAt: startedAt,
      tag,
      root,
      fileCount: recordedFileCount(found.state),
      newObjects: found.newObjects,
      hashedFiles: found.hashedFiles,
      notes,
    };
    await this.folders.manifests.write(manifest);
    this.latest = { id, stored: { state: found.state, index } };
    this.lastSeen = found.state;
    this.seen = { state: found.state, listing: scan.cache };
    return infoOf(manifest);
  }

  private async planRestoreTo(id: string, onUnreachable: OnUnreachable, changedPaths?: readonly string[]): Promise<RestorePlan> {
    const manifest = await this.readManifest(id);
    const wanted = await this.stateOf(manifest.root);
    const present = (changedPaths && (await this.restat(changedPaths))) || (await this.scanPresent(onUnreachable));
    await addPresentButIgnored(this.root, wanted.state, present);
    return planRestore(wanted.state, present);
  }

  /** The folder now from the whole of it: a scan, reading what lstat says changed since it was last seen. */
  private async scanPresent(onUnreachable: OnUnreachable): Promise<WorkspaceState> {
    const base = await this.comparisonBase();
    const scan = await this.scan({ onUnreachable });
    const present = await fingerprint({ root: this.root, scan, base, objects: null, startedAt: Date.now() });
    this.work.filesHashed += present.hashedFiles;
    this.lastSeen = present.state;
    this.seen = { state: present.state, listing: scan.cache };
    return present.state;
  }

  /** The folder now from the last scan and `paths` looked at again; null when only a scan can tell (see restatPaths). */
  private async restat(paths: readonly string[]): Promise<WorkspaceState | null> {
    if (!this.seen) return null;
    const restated = await restatPaths(this.root, this.seen, [...new Set(paths)]);
    if (!restated) return null;
    this.work.filesHashed += restated.hashedFiles;
    this.lastSeen = restated.state;
    this.seen = { state: restated.state, listing: this.seen.listing };
    return restated.state;
  }

  /**
   * What a comparison trusts lstat for: the folder as last scanned, else the latest checkpoint. Its
   * contents need not be stored (a comparison stores nothing), so unlike a snapshot's base it is read
   * without checking them.
   */
  private async comparisonBase(): Promise<WorkspaceState | null> {
    if (this.lastSeen) return this.lastSeen;
    if (this.latest !== undefined) return this.latest?.stored?.state ?? null;
    const id = (await this.folders.manifests.ids()).at(-1);
    const manifest = id === undefined ? null : await this.folders.manifests.read(id).catch(() => null);
    if (!manifest) return null;
    return (await this.stateOf(manifest.root).catch(() => null))?.state ?? null;
  }

  /** A checkpoint's workspace by its root listing's hash, read once while it is among the latest few asked for. */
  private stateOf(rootHash: string): Promise<StoredState> {
    let state = this.states.get(rootHash);
    if (!state) {
      const reading = readState(this.folders.trees, rootHash);
      state = reading.then((stored) => {
        this.work.listingsRead += stored.index.size;
        return stored;
      });
      if (this.states.size >= keptStates) this.states.delete(this.states.keys().next().value as string);
      this.states.set(rootHash, state);
      state.catch(() => {
        if (this.states.get(rootHash) === state) this.states.delete(rootHash);
      });
    } else {
      // Most recently used last, so the oldest goes first.
      this.states.delete(rootHash);
      this.states.set(rootHash, state);
    }
    return state;
  }

  private async readManifest(id: string): Promise<Manifest> {
    if (!isCheckpointId(id)) throw new CheckpointError(`"${id}" is not a checkpoint id.`);
    let manifest: Manifest | null;
    try {
      manifest = await this.folders.manifests.read(id);
    } catch {
      throw new CheckpointError(`Checkpoint ${id} is damaged and cannot be restored; pick an earlier one.`);
    }
    if (!manifest) throw new CheckpointError(`There is no checkpoint ${id}; it may have been removed to save space.`);
    return manifest;
  }

  private async scan({ signal, onUnreachable }: { signal?: AbortSignal; onUnreachable: OnUnreachable }): Promise<WorkspaceScan> {
    this.work.scans += 1;
    const scan = await scanWorkspace(this.root, { signal, cache: this.listingCache });
    this.listingCache = scan.cache;
    for (const subtree of scan.unreachable) onUnreachable(subtree);
    return scan;
  }

  private async latestCheckpoint(): Promise<LatestCheckpoint | null> {
    if (this.latest === undefined) this.latest = await readLatestCheckpoint(this.folders);
    return this.latest;
  }
}

/** A store the walk could see would snapshot itself, and a restore would delete it. */
function refuseStoreInsideWorkspace(root: string, dir: string): void {
  const relative = path.relative(root, dir);
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return;
  if (!relative.split(path.sep).some(isHiddenName)) {
    throw new Error(`The checkpoint store ${dir} would be inside the project folder, where snapshots would record it; keep it in .workbench/.`);
  }
}
