import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { engineId } from '../process/engineIdentity.js';
import { readStateText } from '../store/stateFile.js';

const holderSchema = z.object({
  pid: z.number().int(),
  hostname: z.string(),
  startedAt: z.number(),
  token: z.string(),
  /** The holder's engine id (engineIdentity.ts), the first part of its commands' markers. */
  engine: z.string().regex(/^[0-9a-f]{12}$/).optional(),
});
type Holder = z.infer<typeof holderSchema>;

export class FolderLockedError extends Error {
  constructor(
    readonly folder: string,
    readonly holder: Holder,
  ) {
    super(
      `${folder} is already open in another RPI Workbench engine (process ${holder.pid} on ${holder.hostname}, ` +
        `since ${new Date(holder.startedAt).toISOString()}). Close it there, then try again.`,
    );
    this.name = 'FolderLockedError';
  }
}

export interface FolderLock {
  release(): Promise<void>;
  /** The holder before this one, when its process had died with the lock still held (a crash). */
  readonly crashed: Holder | null;
}

/**
 * Takes `<stateDir>/lock` so one engine at a time works on a folder. The lock file is created whole
 * (written aside, then hard-linked into place), so its content is always complete; a lock whose holder
 * process is gone is taken over.
 */
export async function acquireFolderLock(folder: string, stateDir: string): Promise<FolderLock> {
  const lockFile = path.join(stateDir, 'lock');
  const me: Holder = { pid: process.pid, hostname: os.hostname(), startedAt: Date.now(), token: randomBytes(8).toString('hex'), engine: engineId };
  let crashed: Holder | null = null;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await tryCreate(lockFile, me)) return { release: () => releaseIfMine(lockFile, me), crashed };
    const holder = await readHolder(lockFile);
    if (holder === 'missing') continue;
    if (holder !== 'corrupt' && isAlive(holder)) throw new FolderLockedError(folder, holder);
    if (holder !== 'corrupt') crashed = holder;
    await removeStale(lockFile, holder);
  }
  throw new Error(`Could not take the lock on ${folder}: another engine keeps taking it. Try again.`);
}

async function tryCreate(lockFile: string, me: Holder): Promise<boolean> {
  const aside = `${lockFile}.${me.token}.new`;
  const handle = await open(aside, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644);
  try {
    await handle.writeFile(JSON.stringify(me));
  } finally {
    await handle.close();
  }
  try {
    await link(aside, lockFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(aside, { force: true });
  }
}

async function readHolder(lockFile: string): Promise<Holder | 'missing' | 'corrupt'> {
  const text = await readStateText(lockFile, { maxLinks: 2 });
  if (text === null) return 'missing';
  try {
    const parsed = holderSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : 'corrupt';
  } catch {
    return 'corrupt';
  }
}

function isAlive(holder: Holder): boolean {
  if (holder.hostname !== os.hostname()) return true; // cannot check another machine's processes
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Moves the stale lock aside atomically and deletes it only if it is still the one judged stale. */
async function removeStale(lockFile: string, stale: Holder | 'corrupt'): Promise<void> {
  const aside = `${lockFile}.${randomBytes(8).toString('hex')}.stale`;
  try {
    await rename(lockFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readHolder(aside);
  const same = stale === 'corrupt' ? moved === 'corrupt' : typeof moved === 'object' && moved.token === stale.token;
  if (!same) await link(aside, lockFile).catch(() => undefined); // a live engine won the race: put its lock back
  await rm(aside, { force: true });
}

async function releaseIfMine(lockFile: string, me: Holder): Promise<void> {
  const holder = await readHolder(lockFile);
  if (typeof holder === 'object' && holder.token === me.token) await rm(lockFile, { force: true });
}
