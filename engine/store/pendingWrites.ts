import path from 'node:path';
import { z } from 'zod';
import type { TempFileJournal, Workspace } from '../workspace/workspace.js';
import { AppendLog } from './appendLog.js';

const recordSchema = z.object({ op: z.enum(['begin', 'end']), path: z.string().min(1) });
type PendingWriteRecord = z.infer<typeof recordSchema>;

/** The temp files the engine makes beside the files it writes and restores: `.<name>.<pid>.<8 hex>.tmp`, `.rpi-restore.<pid>.<8 hex>.tmp`. */
const tempFilePattern = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * The journal of temp files in the user's folder (`.workbench/pending-writes.jsonl`): an atomic write or a
 * restore puts its content in a temp file beside its target, then renames it into place; a process killed
 * in between leaves that temp file among the user's files. Each is journaled before it is created and
 * again once it is gone, so the next engine on the folder can remove what a crash left (sweep), without
 * walking the folder to find it.
 */
export class PendingWrites implements TempFileJournal {
  private readonly log: AppendLog<PendingWriteRecord>;

  constructor(stateDir: string) {
    // Kept open: every write of a file of the folder journals twice, begin and end.
    this.log = new AppendLog({ file: path.join(stateDir, 'pending-writes.jsonl'), schema: recordSchema, label: 'pending-writes.jsonl', keepOpen: true });
  }

  /** Journals `tempRel` (a path from the project folder) as being written. */
  begin(tempRel: string): Promise<void> {
    return this.log.append({ op: 'begin', path: tempRel });
  }

  /** Journals `tempRel` as gone again (renamed into place, or removed after a failure). */
  end(tempRel: string): Promise<void> {
    return this.log.append({ op: 'end', path: tempRel });
  }

  /** Lets go of the journal's file, kept open between appends; a later append opens it again. */
  close(): Promise<void> {
    return this.log.close();
  }

  /**
   * Removes the temp files the journal says were begun and never ended, through the workspace (so a path
   * that leads out of the folder, or a planted entry naming something else, removes nothing): only a plain
   * file whose name is one of the engine's temp names, written by a process that is gone. Then empties the
   * journal. Returns the paths removed. Called once the folder's lock is held, before anything is written.
   */
  async sweep(workspace: Workspace): Promise<string[]> {
    const { records } = await this.log.load();
    const pending = new Set<string>();
    for (const record of records) {
      if (record.op === 'begin') pending.add(record.path);
      else pending.delete(record.path);
    }
    const removed: string[] = [];
    for (const rel of pending) if (await removeLeftover(workspace, rel)) removed.push(rel);
    if (records.length > 0) await this.log.truncateAt(() => true);
    return removed.sort();
  }
}

async function removeLeftover(workspace: Workspace, rel: string): Promise<boolean> {
  // The lock is held, so no other engine is writing here: a begun temp file never ended was a crash's.
  if (!tempFilePattern.test(path.posix.basename(rel))) return false;
  try {
    const target = await workspace.resolve(rel, 'write', { followLink: false });
    const stats = await workspace.statIfExists(target);
    if (!stats?.isFile()) return false;
    await workspace.remove(target);
    return true;
  } catch {
    return false; // outside the folder, protected, or changed meanwhile: left as it is
  }
}
