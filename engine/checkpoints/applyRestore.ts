import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm, rmdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { CheckpointError, type RestoreChange } from './checkpointTypes.js';
import { forEachLimited } from './forEachLimited.js';
import { writeAll } from '../files/wholeBytes.js';
import type { HashedFiles } from './hashedFiles.js';
import type { RestorePlan, WritableRecord } from './restorePlan.js';
import type { FileContentRecord } from './workspaceState.js';
import { NotAPlainFolderError, inParentFolder } from '../workspace/heldFolder.js';
import { entriesUnder } from '../workspace/entriesUnder.js';
import type { PendingWrites } from '../store/pendingWrites.js';
import { shownPath } from '../workspace/unreachable.js';

export interface ApplyRestoreOptions {
  root: string;
  plan: RestorePlan;
  objects: HashedFiles;
  /** Journals each temp file put beside a restored file while it exists (see PendingWrites). */
  journal?: PendingWrites | null;
}

const writesAtOnce = 4;

/**
 * Carries out a restore plan: removals first, then folders, then contents, each file put in place by a
 * rename from a temp file beside it, so no file is ever seen half written and a symlink in the way is
 * replaced, never written through. What can be known to stop it midway (a stored content missing or
 * cut short, a folder holding ignored files where a file must go) is checked before the first change; a
 * stored content whose bytes no longer match its hash is found as it is copied, and that file is left as
 * it was. Returns the changes made: a folder that still holds ignored files is kept and not reported.
 */
export async function applyRestore({ root, plan, objects, journal = null }: ApplyRestoreOptions): Promise<RestoreChange[]> {
  await checkBeforeChanging(root, plan, objects);
  // Every change is made in its parent folder reached by descriptor (see inParentFolder): a folder
  // swapped for a symlink during the restore stops it instead of leading a removal or a write outside.
  const inParent = <T>(relPath: string, use: (file: string) => Promise<T>) =>
    inParentFolder(root, relPath, (parent, name) => use(parent.entry(name))).catch((error: unknown) => {
      if (error instanceof NotAPlainFolderError && error.found !== 'missing') {
        throw new CheckpointError(`${relPath} changed during the restore: ${error.message}. The restore stopped there; undo again once nothing else is changing the folder.`);
      }
      throw error;
    });

  await forEachLimited(plan.removeFiles, 8, (relPath) => inParent(relPath, (file) => rm(file, { force: true })).catch(ignoreMissing));
  const kept = new Set<string>();
  for (const folder of plan.removeFolders) {
    if (!(await inParent(folder, removeIfEmpty).catch(ignoreMissing) ?? true)) kept.add(folder);
  }
  for (const folder of plan.createFolders) await inParent(folder, (file) => makeFolder(file, folder));
  await forEachLimited(plan.writes, writesAtOnce, ([relPath, record]) => inParent(relPath, (file) => putInPlace(file, relPath, record, objects, journal)));
  // Last, and deepest first: a folder closed to writing must not stop what goes inside it.
  for (const [folder, mode] of plan.folderModes) await inParent(folder, (file) => setFolderMode(file, mode));
  return plan.changes.filter((change) => !(change.kind === 'folder' && kept.has(change.path)));
}

async function checkBeforeChanging(root: string, plan: RestorePlan, objects: HashedFiles): Promise<void> {
  const missing: string[] = [];
  const contents = plan.writes.filter((write): write is [string, FileContentRecord] => write[1].type === 'file');
  await forEachLimited(contents, 16, async ([relPath, record]) => {
    if (!(await objects.has(record.hash, record.size))) missing.push(relPath);
  });
  if (missing.length > 0) {
    const named = missing.sort().slice(0, 3).join(', ');
    throw new CheckpointError(`The checkpoint is incomplete: the stored content of ${missing.length} file(s) is missing or damaged (${named}). Nothing was changed.`);
  }
  const removed = new Set([...plan.removeFiles, ...plan.removeFolders]);
  for (const [relPath] of plan.writes) await checkClearable(root, relPath, removed);
  for (const folder of plan.createFolders) {
    const stats = await lstat(path.join(root, folder)).catch(() => null);
    if (stats && !stats.isDirectory() && !removed.has(folder)) {
      throw new CheckpointError(`${folder} must become a folder again, but a file that .gitignore excludes is in the way; move it and try again. Nothing was changed.`);
    }
  }
}

/** A folder where a file must go is fine only if everything in it is about to be removed anyway. */
async function checkClearable(root: string, relPath: string, removed: ReadonlySet<string>): Promise<void> {
  const stats = await lstat(path.join(root, relPath)).catch(() => null);
  if (!stats?.isDirectory()) return;
  const unreachable: string[] = [];
  const inside = await entriesUnder(root, relPath, { onUnreachable: (subtree) => unreachable.push(subtree.relPath) });
  const staying = unreachable[0] ?? inside.find((entry) => !removed.has(entry.relPath))?.relPath;
  if (staying !== undefined || !removed.has(relPath)) {
    throw new CheckpointError(
      `${relPath} must become a file again, but it is a folder holding ${staying === undefined ? 'files' : shownPath(staying)} that restore may not remove (ignored by .gitignore, or git's own); move the folder and try again. Nothing was changed.`,
    );
  }
}

/** False when the folder still holds something (files .gitignore excludes), which stays. */
async function removeIfEmpty(folder: string): Promise<boolean> {
  try {
    await rmdir(folder);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return true;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Gives a folder its recorded permission bits through a descriptor opened without following links, so a
 * folder swapped for a symlink meanwhile is never changed through it. A folder that is gone is left.
 */
async function setFolderMode(folder: string, mode: number): Promise<void> {
  let handle;
  try {
    handle = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return;
    throw error;
  }
  try {
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}

async function makeFolder(folder: string, relPath: string): Promise<void> {
  try {
    await mkdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (!(await lstat(folder)).isDirectory()) throw new CheckpointError(`${relPath} must become a folder again, but something else is there now.`);
  }
}

async function putInPlace(file: string, relPath: string, record: WritableRecord, objects: HashedFiles, journal: PendingWrites | null): Promise<void> {
  const name = `.rpi-restore.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const temp = path.join(path.dirname(file), name);
  const journaled = path.posix.join(path.posix.dirname(relPath), name);
  await journal?.begin(journaled);
  try {
    if (record.type === 'symlink') await symlink(record.target, temp);
    else await copyOut(objects, record, temp, relPath);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  } finally {
    await journal?.end(journaled);
  }
}

/** Copies stored content to a new file, checking it against its hash on the way, and gives it the recorded mode. */
async function copyOut(objects: HashedFiles, record: FileContentRecord, temp: string, relPath: string): Promise<void> {
  const output = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    const hasher = createHash('sha256');
    let size = 0;
    try {
      for await (const piece of objects.stream(record.hash, record.size)) {
        hasher.update(piece);
        await writeAll(output.fd, piece);
        size += piece.length;
      }
    } catch (error) {
      // A gzipped content cut short or damaged fails to inflate: the same as bytes that do not match their hash.
      if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) throw new CheckpointError(`The stored content of ${relPath} is damaged; it was not restored.`);
      throw error;
    }
    if (size !== record.size || hasher.digest('hex') !== record.hash) throw new CheckpointError(`The stored content of ${relPath} is damaged; it was not restored.`);
    // The mode given to open is cut by the umask; chmod sets exactly the recorded one.
    await output.chmod(record.mode);
  } finally {
    await output.close();
  }
}

/** A parent folder already gone means what was to be removed from it is gone too. */
function ignoreMissing(error: unknown): undefined {
  if (error instanceof NotAPlainFolderError && error.found === 'missing') return undefined;
  throw error;
}
