import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { rename, rm, symlink, unlink } from 'node:fs/promises';
import { HeldFolder, NotAPlainFolderError, openEntry } from '../workspace/heldFolder.js';
import { PathRefusedError, protectedWriteReason } from '../workspace/pathRules.js';
import path from 'node:path';
import type { RevertedFile } from '../contract/changes.js';
import type { PendingWrites } from '../store/pendingWrites.js';

/** What a path must hold after a revert: a file's bytes and mode, a symlink, or nothing. */
export type WantedEntry = { kind: 'file'; mode: number; bytes: Uint8Array } | { kind: 'symlink'; target: string } | null;

export interface PutBackOptions {
  root: string;
  /** From the project folder, '/' separators, already normalised. */
  relPath: string;
  wanted: WantedEntry;
  /** Journals the temp file while it exists, so a crash's leftover is swept at the next open. */
  journal: PendingWrites | null;
}

/**
 * Puts one path of the folder back to `wanted`, reached from the root one plain folder at a time by
 * descriptor (a folder swapped for a symlink refuses instead of leading the write outside). A file or
 * symlink goes in place by a rename from a temp file beside it, so nothing is ever half written and a
 * symlink in the way is replaced, never written through; missing parent folders are made. A folder
 * standing where the file must go is left alone, with an error saying so.
 */
export async function putBack({ root, relPath, wanted, journal }: PutBackOptions): Promise<RevertedFile['change']> {
  const refused = protectedWriteReason(relPath);
  if (refused) throw new PathRefusedError(relPath, refused);
  const parts = relPath.split('/');
  const name = parts.pop() ?? '';
  const rootFolder = await HeldFolder.open(root);
  let parent: HeldFolder;
  try {
    parent = await rootFolder.descend(parts, { create: wanted !== null });
  } catch (error) {
    if (wanted === null && error instanceof NotAPlainFolderError && error.found === 'missing') return 'unchanged';
    if (error instanceof NotAPlainFolderError) throw new PathRefusedError(relPath, `${error.message}, so nothing was put back there`);
    throw error;
  } finally {
    await rootFolder.close();
  }
  try {
    return await putInFolder({ parent, name, relPath, wanted, journal });
  } finally {
    await parent.close();
  }
}

async function putInFolder({ parent, name, relPath, wanted, journal }: { parent: HeldFolder; name: string; relPath: string; wanted: WantedEntry; journal: PendingWrites | null }): Promise<RevertedFile['change']> {
  const existing = await parent.lstat(name);
  if (existing?.isDirectory()) throw new PathRefusedError(relPath, 'it is a folder now; move it away first, then revert again');
  if (wanted === null) {
    if (!existing) return 'unchanged';
    await unlink(parent.entry(name));
    return 'removed';
  }
  const temp = `.rpi-revert.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const journaled = path.posix.join(path.posix.dirname(relPath), temp);
  await journal?.begin(journaled);
  try {
    if (wanted.kind === 'symlink') await symlink(wanted.target, parent.entry(temp));
    else await writeTemp(parent, temp, wanted);
    await rename(parent.entry(temp), parent.entry(name));
  } catch (error) {
    await rm(parent.entry(temp), { force: true });
    throw error;
  } finally {
    await journal?.end(journaled);
  }
  return existing ? 'restored' : 'recreated';
}

async function writeTemp(parent: HeldFolder, temp: string, wanted: { mode: number; bytes: Uint8Array }): Promise<void> {
  const handle = await openEntry(parent, temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await handle.writeFile(wanted.bytes);
    await handle.sync();
    // The mode given to open is cut by the umask; chmod sets exactly the recorded one.
    await handle.chmod(wanted.mode);
  } finally {
    await handle.close();
  }
}
