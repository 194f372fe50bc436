import { constants, type Stats } from 'node:fs';
import { lstat, readlink, realpath, rename, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../files/atomicWrite.js';
import { IgnoreRules } from './ignoreRules.js';
import { HeldFolder, NotAPlainFolderError, openEntry, sameIdentity, specialKind, type FolderIdentity } from './heldFolder.js';
import { PathRefusedError, hiddenDirectories, isInside } from './pathRules.js';
import { resolvePath, type Access, type WorkspacePath } from './resolvePath.js';
import { UnreachableSubtrees } from './unreachable.js';

export type { Access, WorkspacePath } from './resolvePath.js';

/** Where the workspace journals each temp file a write puts beside its target, by its path from the root (PendingWrites keeps one). */
export interface TempFileJournal {
  begin(tempRel: string): Promise<void>;
  end(tempRel: string): Promise<void>;
}

const protectedAliasReason = 'it is .git/ or .workbench/ under another name, which tools never write';

/**
 * The opened folder as the tools see it. Every path is judged twice: when a tool resolves it (symlinks
 * resolved, the real path must stay inside), and again at the moment of use, when the resolved path is
 * walked from the root one folder at a time by descriptor without following any link (see HeldFolder), so
 * a folder swapped for a symlink in between refuses instead of leading a read, a write, a delete or a
 * move outside the folder. Without /proc (macOS, Windows) each step is checked with lstat just before use.
 */
export class Workspace {
  private constructor(
    readonly root: string,
    /** Where walks of the folder report what they cannot reach: one warning per subtree while it is open. */
    readonly unreachable: UnreachableSubtrees,
  ) {}

  /** Where temp files are journaled while they exist, so a crash's leftovers can be swept (set once the state folder is open). */
  private pending: TempFileJournal | null = null;

  keepJournal(pending: TempFileJournal): void {
    this.pending = pending;
  }

  /** `root` must be the real path of an existing folder (openWorkbench's checkFolder gives one). */
  static async at(root: string, { unreachable = new UnreachableSubtrees() }: { unreachable?: UnreachableSubtrees } = {}): Promise<Workspace> {
    return new Workspace(await realpath(root), unreachable);
  }

  /** A path as the model wrote it, checked and resolved in this folder; see resolvePath for what is refused. */
  resolve(requested: string, access: Access, options: { followLink?: boolean } = {}): Promise<WorkspacePath> {
    return resolvePath(this.root, requested, access, options);
  }

  /** The .gitignore rules in effect inside folder `rel` (its own and every ancestor's). */
  ignoreRulesFor(rel: string): IgnoreRules {
    if (rel === '') return IgnoreRules.none.enter(this.root, '');
    return IgnoreRules.forAncestorsOf(this.root, rel).enter(this.root, rel);
  }

  /** stat of a checked path (lstat: every step to it is re-walked without following links), now. */
  async stat(target: WorkspacePath): Promise<Stats> {
    if (target.rel === '') return stat(this.root);
    return this.inParent(target, async (parent, name) => {
      const stats = await lstat(parent.entry(name));
      if (stats.isSymbolicLink() && !target.keepsLink) throw this.moved(target);
      return stats;
    });
  }

  /** Like stat, but null when nothing is there; a refusal or any other failure still throws. */
  async statIfExists(target: WorkspacePath): Promise<Stats | null> {
    try {
      return await this.stat(target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw error;
    }
  }

  /** Lists a checked folder, reached now without following links. */
  async list(target: WorkspacePath) {
    const folder = await this.walk(target, this.partsOf(target));
    try {
      return await folder.list();
    } finally {
      await folder.close();
    }
  }

  /**
   * Opens a checked file for reading, reached now without following links and never waiting on a FIFO.
   * Only a regular file with no other name is opened: a special file is refused for what it is, and a
   * file with several hard links too, since its other name may be outside the folder (a cloned repository
   * cannot hold hard links; only a process on this machine makes them, pnpm's package store for one).
   */
  async openForRead(target: WorkspacePath): Promise<FileHandle> {
    const handle = await this.inParent(target, (parent, name) =>
      openEntry(parent, name, constants.O_RDONLY).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'ELOOP') throw this.moved(target);
        // A socket cannot be opened at all (ENXIO): said for what it is, as a FIFO or a device is.
        const existing = await parent.lstat(name).catch(() => null);
        const problem = existing ? unreadableReason(existing) : null;
        if (problem) throw new PathRefusedError(target.requested, problem);
        if (error.code === 'EACCES' || error.code === 'EPERM') throw new PathRefusedError(target.requested, 'it may not be read (permission denied)');
        throw error;
      }),
    );
    try {
      const problem = unreadableReason(await handle.stat());
      if (problem) throw new PathRefusedError(target.requested, problem);
      await this.assertDescriptorInside(target, handle.fd);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** The first `maxBytes` of a checked file (all of it when smaller), with its whole size: a large file is not read whole for its head. */
  async readHead(target: WorkspacePath, maxBytes: number): Promise<{ bytes: Buffer; size: number }> {
    const handle = await this.openForRead(target);
    try {
      const { size } = await handle.stat();
      const buffer = Buffer.alloc(Math.min(size, maxBytes));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return { bytes: buffer.subarray(0, bytesRead), size };
    } finally {
      await handle.close();
    }
  }

  /** Reads a whole checked file. */
  async readFile(target: WorkspacePath): Promise<Buffer> {
    const handle = await this.openForRead(target);
    try {
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /**
   * Replaces (or creates) a checked file atomically, creating missing parent folders: temp file in the
   * same folder (held by descriptor), fsync, rename. Returns whether the file existed before.
   */
  async writeFile(target: WorkspacePath, data: string | Uint8Array): Promise<{ created: boolean }> {
    this.assertWritable(target);
    return this.inParent(
      target,
      async (parent, name) => {
        const existing = await parent.lstat(name);
        if (existing?.isDirectory()) throw new PathRefusedError(target.requested, 'it is a folder, not a file');
        if (existing?.isSymbolicLink()) throw this.moved(target);
        if (existing && specialKind(existing)) throw new PathRefusedError(target.requested, `it is ${specialKind(existing)}, not a file`);
        const { pending } = this;
        const relOf = (temp: string) => path.posix.join(path.posix.dirname(target.rel), path.basename(temp));
        await writeFileAtomic(parent.entry(name), data, existing?.mode ?? 0o644, {
          beforeWrite: (fd) => this.assertDescriptorInside(target, fd),
          ...(pending ? { journal: { begin: (temp: string) => pending.begin(relOf(temp)), end: (temp: string) => pending.end(relOf(temp)) } } : {}),
        });
        return { created: existing === null };
      },
      { create: true },
    );
  }

  /** Removes a checked file, or a folder with everything in it, by descriptor; never the root. A symlink itself is removed. */
  async remove(target: WorkspacePath): Promise<void> {
    this.assertWritable(target);
    await this.inParent(target, async (parent, name) => {
      const stats = await parent.lstat(name);
      if (!stats) throw Object.assign(new Error(`${target.requested} does not exist`), { code: 'ENOENT' });
      if (stats.isSymbolicLink() && !target.keepsLink) throw this.moved(target);
      if (stats.isDirectory()) await this.refuseProtectedIdentity(target, stats);
      await parent.removeEntry(name);
    });
  }

  /** Moves a checked path to another, creating the destination's parent folders; never overwrites. */
  async move(from: WorkspacePath, to: WorkspacePath): Promise<void> {
    this.assertWritable(from);
    this.assertWritable(to);
    await this.inParent(from, (fromParent, fromName) =>
      this.inParent(
        to,
        async (toParent, toName) => {
          const source = await fromParent.lstat(fromName);
          if (!source) throw Object.assign(new Error(`${from.requested} does not exist`), { code: 'ENOENT' });
          if (source.isDirectory()) await this.refuseProtectedIdentity(from, source);
          if (await toParent.lstat(toName)) throw new PathRefusedError(to.requested, 'something already exists there; delete it first or choose another name');
          await rename(fromParent.entry(fromName), toParent.entry(toName));
        },
        { create: true },
      ),
    );
  }

  /**
   * Walks from the root to the parent folder of `target` by descriptor, never following a link, and
   * runs `use` with it and the final name. Any step that is no longer a plain folder (swapped for a
   * symlink since the check) refuses; for a write, a step that is `.git/` or `.workbench/` under another
   * name refuses too.
   */
  private async inParent<T>(target: WorkspacePath, use: (parent: HeldFolder, name: string) => Promise<T>, options: { create?: boolean } = {}): Promise<T> {
    const parts = this.partsOf(target);
    const name = parts.pop();
    if (name === undefined) throw new PathRefusedError(target.requested, 'it is the project folder itself');
    const parent = await this.walk(target, parts, options);
    try {
      return await use(parent, name);
    } finally {
      await parent.close();
    }
  }

  private async walk(target: WorkspacePath, parts: readonly string[], { create = false }: { create?: boolean } = {}): Promise<HeldFolder> {
    const root = await HeldFolder.open(this.root);
    const protectedIds = target.access === 'write' ? await this.protectedIdentities() : [];
    let current = root;
    try {
      for (const part of parts) {
        const next = await current.child(part, { create: create && target.access === 'write' });
        await current.close();
        current = next;
        if (protectedIds.some((id) => sameIdentity(id, next.identity))) throw new PathRefusedError(target.requested, protectedAliasReason);
      }
      return current;
    } catch (error) {
      await current.close();
      if (error instanceof NotAPlainFolderError) {
        if (error.found === 'missing') throw Object.assign(new Error(`${target.requested} does not exist`), { code: 'ENOENT' });
        throw this.moved(target);
      }
      throw error;
    }
  }

  private partsOf(target: WorkspacePath): string[] {
    return target.rel === '' ? [] : target.rel.split('/');
  }

  /** The folders tools never write, by identity, so no other name for them (a bind mount, another case) gets in. */
  private async protectedIdentities(): Promise<FolderIdentity[]> {
    const found = await Promise.all([...hiddenDirectories].map((name) => lstat(path.join(this.root, name)).catch(() => null)));
    return found.filter((stats) => stats?.isDirectory() ?? false) as Stats[];
  }

  private async refuseProtectedIdentity(target: WorkspacePath, stats: Stats): Promise<void> {
    if ((await this.protectedIdentities()).some((id) => sameIdentity(id, stats))) throw new PathRefusedError(target.requested, protectedAliasReason);
  }

  private assertWritable(target: WorkspacePath): void {
    if (target.access !== 'write') throw new Error(`${target.requested} was resolved for reading, not writing`);
  }

  /** Where an open descriptor really points (Linux: /proc/self/fd), which no later rename can change. */
  private async assertDescriptorInside(target: WorkspacePath, fd: number): Promise<void> {
    const actual = await readlink(`/proc/self/fd/${fd}`).catch(() => null);
    if (actual !== null && !isInside(this.root, actual)) throw this.moved(target);
  }

  private moved(target: WorkspacePath): PathRefusedError {
    return new PathRefusedError(target.requested, 'it changed while in use (a symlink now leads outside the project folder)');
  }
}

function unreadableReason(stats: Stats): string | null {
  if (stats.isDirectory()) return 'it is a folder, not a file';
  const special = specialKind(stats);
  if (special) return `it is ${special}, which is never opened`;
  if (stats.nlink > 1) return `it has ${stats.nlink} hard links, and another name may be outside the project folder; tools do not read hard-linked files (copy it to a new file to read it)`;
  return null;
}
