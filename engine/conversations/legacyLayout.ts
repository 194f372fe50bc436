import { lstat, mkdir, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { syncDirectory, writeFileAtomic } from '../files/atomicWrite.js';
import { readStateFile, StateFileError } from '../store/stateFile.js';
import { conversationsDirName } from '../store/stateDirNames.js';
import { HeldFolder } from '../workspace/heldFolder.js';
import { firstConversationId } from './conversationId.js';
import { writeMeta } from './conversationMeta.js';

export { conversationsDirName, stateDirName } from '../store/stateDirNames.js';

/** What the single-conversation layout kept at the top of `.workbench/`, and each conversation now keeps in its own folder. */
export const conversationEntries = ['conversation.jsonl', 'rpi', 'runs'] as const;

/** A move in progress is built here (inside conversations/), and becomes the conversation by one rename. */
const stagingPrefix = '.moving-';
/** Names the engine never gives a conversation: a move's staging folder, a conversation being deleted. */
const clutterPrefix = '.';

/** The points of a move, in order, for a test that stops the process at each. */
export type MoveStep = 'staged' | `copied ${string}` | 'described' | 'committed' | `removed ${string}`;

export interface LegacyConversation {
  id: string;
  created: number;
}

/**
 * Whether `.workbench/` holds anything of the single-conversation layout: a conversation.jsonl, rpi/ or
 * runs/ at its top. Only read, so a read-only command can show it as the folder's one conversation.
 */
export async function hasLegacyEntries(stateDir: string): Promise<boolean> {
  for (const name of conversationEntries) if (await lstat(path.join(stateDir, name)).catch(() => null)) return true;
  return false;
}

/**
 * Moves the single-conversation layout into `conversations/<id>/`, so that a kill at any point leaves one
 * readable layout and loses nothing: the conversation is copied into a staging folder, described, and
 * made a conversation by one rename (the commit); only then are the old entries removed. Before the
 * commit the old layout is whole and the staging folder is clutter (removed by the next move); after it,
 * the new layout is whole and an old entry still there is ignored (removed by finishMove).
 */
export async function moveLegacyLayout(stateDir: string, legacy: LegacyConversation, onStep: (step: MoveStep) => void = () => {}): Promise<void> {
  const conversations = path.join(stateDir, conversationsDirName);
  await mkdir(conversations, { recursive: true, mode: 0o700 });
  await sweepClutter(conversations);
  const staging = path.join(conversations, `${stagingPrefix}${legacy.id}`);
  await mkdir(staging, { mode: 0o700 });
  onStep('staged');
  for (const name of conversationEntries) {
    if (await copyEntry(path.join(stateDir, name), path.join(staging, name))) onStep(`copied ${name}`);
  }
  await writeMeta(staging, { id: legacy.id, created: legacy.created, title: null });
  onStep('described');
  await rename(staging, path.join(conversations, legacy.id));
  await syncDirectory(conversations);
  onStep('committed');
  await finishMove(stateDir, onStep);
}

/** Removes what a committed move left of the old layout; the conversation it was copied into is whole. */
export async function finishMove(stateDir: string, onStep: (step: MoveStep) => void = () => {}): Promise<void> {
  const state = await HeldFolder.open(stateDir);
  try {
    for (const name of conversationEntries) {
      if (!(await state.lstat(name))) continue;
      await state.removeEntry(name);
      onStep(`removed ${name}`);
    }
  } finally {
    await state.close();
  }
}

/** The id and creation time the folder's one conversation gets, from its first message when it has one. */
export async function legacyConversation(firstMessage: { id: string; ts: number } | null, stateDir: string): Promise<LegacyConversation> {
  const created = firstMessage?.ts ?? (await lstat(stateDir)).mtimeMs;
  return { id: firstConversationId(firstMessage?.id ?? null), created: Math.floor(created) };
}

/** Copies a state file or folder (plain files and folders only: a link is refused, never followed). False when absent. */
async function copyEntry(from: string, to: string): Promise<boolean> {
  const stats = await lstat(from).catch(() => null);
  if (!stats) return false;
  if (stats.isDirectory()) {
    await mkdir(to, { mode: 0o700 });
    for (const name of await readdir(from)) await copyEntry(path.join(from, name), path.join(to, name));
    return true;
  }
  const bytes = await readStateFile(from);
  if (bytes === null) throw new StateFileError(`The workbench state file ${path.basename(from)} went away while the conversation was being moved; open the folder again.`);
  await writeFileAtomic(to, bytes);
  return true;
}

/** Removes what a move or a delete cut short left in conversations/ (never a conversation: those have no dot). */
export async function sweepClutter(conversations: string): Promise<void> {
  const held = await HeldFolder.open(conversations);
  try {
    for (const entry of await held.list()) if (entry.name.startsWith(clutterPrefix)) await held.removeEntry(entry.name);
  } finally {
    await held.close();
  }
}
