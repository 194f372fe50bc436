import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, realpath, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomicWrite.js';
import { IgnoreRules } from './ignoreRules.js';
import { PathRefusedError, isInside, lexicalPath, protectedWriteReason } from './pathRules.js';

export type Access = 'read' | 'write';

/** A path checked against the workspace: where the model pointed, and where that really is. */
export interface WorkspacePath {
  /** As the model wrote it; refusals and results name this. */
  readonly requested: string;
  /** Relative to the root with '/' separators, symlinks resolved; '' for the root itself. */
  readonly rel: string;
  /** Absolute real path: every symlink resolved, as far as the path exists. */
  readonly real: string;
  readonly access: Access;
  /** True when a final symlink stands for itself (resolved with `followLink: false`). */
  readonly keepsLink: boolean;
}

const noFollow = constants.O_NOFOLLOW ?? 0;

/**
 * The opened folder as the tools see it. Every path is judged twice: when a tool resolves it, and again
 * at the moment of use (real path recomputed, opened files checked through their descriptor), so a
 * symlink swapped in between cannot lead a read or a write outside the folder.
 */
export class Workspace {
  private constructor(readonly root: string) {}

  /** `root` must be the real path of an existing folder (openWorkbench's checkFolder gives one). */
  static async at(root: string): Promise<Workspace> {
    return new Workspace(await realpath(root));
  }

  /**
   * Resolves a path as the model wrote it, or throws PathRefusedError naming it and the reason. With
   * `followLink: false` a final symlink is kept as itself (to delete or move the link, not its target).
   */
  async resolve(requested: string, access: Access, { followLink = true }: { followLink?: boolean } = {}): Promise<WorkspacePath> {
    const lexical = lexicalPath(requested, this.root);
    if (access === 'write') this.refuseProtected(requested, lexical);
    const absolute = path.join(this.root, lexical);
    const real =
      followLink || lexical === ''
        ? await this.realPathOf(requested, absolute)
        : path.join(await this.realPathOf(requested, path.dirname(absolute)), path.basename(absolute));
    const rel = path.relative(this.root, real).split(path.sep).join('/');
    if (access === 'write') this.refuseProtected(requested, rel);
    return { requested, rel, real, access, keepsLink: !followLink && lexical !== '' };
  }

  /** The .gitignore rules in effect inside folder `rel` (its own and every ancestor's). */
  async ignoreRulesFor(rel: string): Promise<IgnoreRules> {
    if (rel === '') return IgnoreRules.none.enter(this.root, '');
    return (await IgnoreRules.forAncestorsOf(this.root, rel)).enter(this.root, rel);
  }

  /** stat of a checked path (lstat when it keeps its link), re-checked now. */
  async stat(target: WorkspacePath): Promise<Stats> {
    await this.recheck(target);
    return target.keepsLink ? lstat(target.real) : stat(target.real);
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

  /** Lists a checked folder, re-checked now. */
  async list(target: WorkspacePath) {
    await this.recheck(target);
    return readdir(target.real, { withFileTypes: true });
  }

  /**
   * Opens a checked file for reading. The file is opened without following a final symlink, then the
   * descriptor itself is asked where it points, so a swap after the check is caught.
   */
  async openForRead(target: WorkspacePath): Promise<FileHandle> {
    await this.recheck(target);
    let handle: FileHandle;
    try {
      handle = await open(target.real, constants.O_RDONLY | noFollow);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw this.moved(target);
      throw error;
    }
    try {
      await this.assertDescriptorInside(target, handle);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
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
   * same real folder, fsync, rename. Returns whether the file existed before.
   */
  async writeFile(target: WorkspacePath, data: string | Uint8Array): Promise<{ created: boolean }> {
    this.assertWritable(target);
    const dir = path.dirname(target.real);
    await this.makeParents(target, dir);
    const existing = await lstat(target.real).catch(() => null);
    if (existing?.isDirectory()) throw new PathRefusedError(target.requested, 'it is a folder, not a file');
    await writeFileAtomic(target.real, data, existing?.mode ?? 0o644, {
      beforeWrite: (handle) => this.assertDescriptorInside(target, handle),
      beforeRename: () => this.recheckParent(target),
    });
    return { created: existing === null };
  }

  /** Removes a checked file, or a folder with everything in it; never the root. A symlink itself is removed. */
  async remove(target: WorkspacePath): Promise<void> {
    this.assertWritable(target);
    await this.recheckParent(target);
    await rm(target.real, { recursive: true });
  }

  /** Moves a checked path to another, creating the destination's parent folders; never overwrites. */
  async move(from: WorkspacePath, to: WorkspacePath): Promise<void> {
    this.assertWritable(from);
    this.assertWritable(to);
    await this.recheckParent(from);
    await this.makeParents(to, path.dirname(to.real));
    if (await lstat(to.real).catch(() => null)) throw new PathRefusedError(to.requested, 'something already exists there; delete it first or choose another name');
    await rename(from.real, to.real);
  }

  private refuseProtected(requested: string, rel: string): void {
    const reason = protectedWriteReason(rel);
    if (reason) throw new PathRefusedError(requested, reason);
  }

  private assertWritable(target: WorkspacePath): void {
    if (target.access !== 'write') throw new Error(`${target.requested} was resolved for reading, not writing`);
  }

  /**
   * The real path of `absolute`: realpath of the deepest part that exists, plus the parts that do not
   * exist yet (which therefore cannot be symlinks). A symlink leading outside is refused here.
   */
  private async realPathOf(requested: string, absolute: string): Promise<string> {
    const missing: string[] = [];
    let existing = absolute;
    for (;;) {
      try {
        const real = path.join(await realpath(existing), ...missing);
        if (!isInside(this.root, real)) throw new PathRefusedError(requested, await outsideReason(existing, real));
        return real;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
        if (await isDanglingSymlink(existing)) {
          throw new PathRefusedError(requested, `it goes through a broken symlink (${path.basename(existing)} → ${await readlink(existing)})`);
        }
        if (existing === this.root) throw error;
        missing.unshift(path.basename(existing));
        existing = path.dirname(existing);
      }
    }
  }

  /** Recomputes the real path at the moment of use; it must still be the one that was checked. */
  private async recheck(target: WorkspacePath): Promise<void> {
    if (target.keepsLink) return this.recheckParent(target);
    if ((await this.realPathNow(target, target.real)) !== target.real) throw this.moved(target);
  }

  private async recheckParent(target: WorkspacePath): Promise<void> {
    const dir = path.dirname(target.real);
    if ((await this.realPathNow(target, dir)) !== dir) throw this.moved(target);
  }

  /** A refusal at use means something changed since the check, which is what the model is told. */
  private async realPathNow(target: WorkspacePath, absolute: string): Promise<string> {
    try {
      return await this.realPathOf(target.requested, absolute);
    } catch (error) {
      throw error instanceof PathRefusedError ? this.moved(target) : error;
    }
  }

  private async makeParents(target: WorkspacePath, dir: string): Promise<void> {
    await this.recheckParent(target);
    await mkdir(dir, { recursive: true });
    await this.recheckParent(target);
  }

  /** Where an open descriptor really points (Linux: /proc/self/fd), which no later rename can change. */
  private async assertDescriptorInside(target: WorkspacePath, handle: FileHandle): Promise<void> {
    const actual = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
    if (actual !== null && !isInside(this.root, actual)) throw this.moved(target);
  }

  private moved(target: WorkspacePath): PathRefusedError {
    return new PathRefusedError(target.requested, 'it changed while in use (a symlink now leads outside the project folder)');
  }
}

async function isDanglingSymlink(file: string): Promise<boolean> {
  const info = await lstat(file).catch(() => null);
  return info?.isSymbolicLink() ?? false;
}

async function outsideReason(existing: string, real: string): Promise<string> {
  const viaLink = await realpath(existing).then((resolved) => resolved !== existing, () => false);
  return viaLink ? `it is reached through a symlink that leads outside the project folder (to ${real})` : 'it leads outside the project folder';
}
