import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../files/atomicWrite.js';
import { conversationsDirName, stateDirName } from '../conversations/legacyLayout.js';
import { removeDeadWritersTemps, sweepClearedRpi } from '../rpi/rpiState.js';
import { notPlain, readStateText } from '../store/stateFile.js';
import { HeldFolder, NotAPlainFolderError, type FolderIdentity } from '../workspace/heldFolder.js';
import { FolderError } from './folderCheck.js';

export { stateDirName } from '../conversations/legacyLayout.js';

/** The lock is hard-linked into place from a file beside it, so for a moment it has two names. */
const lockNames = /^lock(\..+)?$/;

/** `.workbench/`, opened once and held, after checking that it and all it holds are plain folders and files. */
export interface StateFolder {
  /**
   * The path every state file is named through: `/proc/self/fd/<fd>` of the held folder on Linux, so a
   * `.workbench` renamed or swapped for a symlink later cannot redirect the engine; its real path elsewhere.
   */
  readonly dir: string;
  readonly identity: FolderIdentity;
  /** Removes the temp files of writes killed midway (see removeDeadWritersTemps); once the folder's lock is held. */
  sweepUnfinishedWrites(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens (creating it when missing) the state folder of `root`, a real path. The project folder is
 * untrusted input, so `.workbench` and everything inside it must be plain folders and plain files with
 * no other name: a symlink, a hard link or a special file anywhere in it is refused with a FolderError
 * that says which and how to fix it, before anything is read or written there.
 */
/** Why the state folder cannot be written, by the system's error code. */
const unwritableReasons: Partial<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'it is on a read-only file system',
};

/**
 * The error to show for one met while readying `.workbench/` (its files, the lock): a folder the user may
 * not write is said in one sentence, naming it (the system's words name a descriptor path); others as they are.
 */
export function stateFolderError(root: string, error: unknown): unknown {
  const why = unwritableReasons[(error as NodeJS.ErrnoException | null)?.code ?? ''];
  if (!why) return error;
  return new FolderError(`Cannot use ${path.join(root, stateDirName)}: ${why}. The workbench keeps its lock, history and checkpoints there; give your user write access to it.`);
}

export async function openStateFolder(root: string): Promise<StateFolder> {
  const rootFolder = await HeldFolder.open(root);
  let held: HeldFolder;
  try {
    held = await rootFolder.child(stateDirName, { create: true, mode: 0o700 });
  } catch (error) {
    if (error instanceof NotAPlainFolderError) throw new FolderError(await stateRefusal(root, stateDirName, `is a ${error.found}`));
    throw error;
  } finally {
    await rootFolder.close();
  }
  try {
    const problem = await firstNotPlain(held, '');
    if (problem) throw new FolderError(await stateRefusal(root, path.posix.join(stateDirName, problem.rel), problem.problem));
    await ensureSelfIgnored(held.path);
    // An rpi/ a crashed engine had renamed away to clear it, but not yet removed.
    await sweepClearedRpi(held);
    await eachConversationFolder(held, sweepClearedRpi);
    const sweepUnfinishedWrites = async () => {
      await removeDeadWritersTemps(held);
      await eachConversationFolder(held, removeDeadWritersTemps);
    };
    return { dir: held.path, identity: held.identity, sweepUnfinishedWrites, close: () => held.close() };
  } catch (error) {
    await held.close();
    throw error;
  }
}

/**
 * Whether the workbench has ever used `root` (a real path): whether anything at all is named `.workbench`
 * there. Nothing is followed or created; a link or a file by that name counts, so opening it is refused.
 */
export async function hasStateFolder(root: string): Promise<boolean> {
  try {
    await lstat(path.join(root, stateDirName));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** The first entry under `folder` that is not a plain folder or a plain file of its own, depth first. */
async function firstNotPlain(folder: HeldFolder, rel: string): Promise<{ rel: string; problem: string } | null> {
  const entries = await folder.list();
  for (const entry of entries) {
    const entryRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) {
      const inner = await folder.child(entry.name).catch((error: unknown) => {
        if (error instanceof NotAPlainFolderError) return null;
        throw error;
      });
      if (!inner) return { rel: entryRel, problem: 'changed while it was checked' };
      try {
        const found = await firstNotPlain(inner, entryRel);
        if (found) return found;
      } finally {
        await inner.close();
      }
      continue;
    }
    const stats = await folder.lstat(entry.name);
    const problem = stats && notPlain(stats, rel === '' && lockNames.test(entry.name) ? 2 : 1);
    if (problem) return { rel: entryRel, problem };
  }
  return null;
}

async function stateRefusal(root: string, rel: string, problem: string): Promise<string> {
  const shown = path.join(root, rel);
  const target = problem === "is a symlink" ? await readlink(shown).catch(() => null) : null;
  const what = target === null ? problem : `${problem} (to ${target})`;
  return (
    `Cannot open ${root}: ${shown} ${what}. The workbench keeps its own state in ${stateDirName}/ and never follows ` +
    `links there or shares its files; remove ${shown} (or the whole ${stateDirName} folder, which holds only workbench state) and open the folder again.`
  );
}

/** `.workbench/.gitignore` holds "*" so git never sees the folder; the user's own .gitignore is never edited. */
async function ensureSelfIgnored(dir: string): Promise<void> {
  const file = `${dir}/.gitignore`;
  const current = await readStateText(file);
  if (current?.trim() !== '*') await writeFileAtomic(file, '*\n', 0o644);
}


/** Runs `sweep` in each conversation's folder, which holds that conversation's rpi/. */
async function eachConversationFolder(state: HeldFolder, sweep: (folder: HeldFolder) => Promise<unknown>): Promise<void> {
  if (!(await state.lstat(conversationsDirName))?.isDirectory()) return;
  const conversations = await state.child(conversationsDirName);
  try {
    for (const entry of await conversations.list()) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const conversation = await conversations.child(entry.name);
      await sweep(conversation).finally(() => conversation.close());
    }
  } finally {
    await conversations.close();
  }
}
