import { randomBytes } from 'node:crypto';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { PlanItem, PlanItemStatus, RpiState } from '../contract/index.js';
import { isProcessAlive, removeStaleTempFiles, writeFileAtomic } from '../files/atomicWrite.js';
import { writeOneByteEdit } from '../store/oneByteEdit.js';
import { SerialQueue } from '../store/serialQueue.js';
import { readStateText } from '../store/stateFile.js';
import { HeldFolder } from '../workspace/heldFolder.js';
import { currentChecksFile, currentChecksLabel, readCheckResults, withCheckResults } from './checkLog.js';
import { appendPlanItems, markPlanItem, parsePlan, withOriginalCount, type AppendedPlanItems } from './planFile.js';

export interface RpiPaths {
  dir: string;
  research: string;
  plan: string;
}

/**
 * The most a research.md or plan.md may be to be read (in rpi/ or kept in runs/): far beyond anything a
 * model writes, small enough that a planted huge file is refused instead of read into memory.
 */
export const rpiFileMaxBytes = 8 * 1024 * 1024;

const readArtifact = (file: string) => readStateText(file, { maxBytes: rpiFileMaxBytes });

/**
 * What rpi/ is renamed to when it is cleared, in `.workbench/`: `.rpi.<pid>.<8 hex>.cleared`. The rename
 * is the clear; a crash before the folder under that name is removed leaves it for the next open to sweep.
 */
const clearedName = (): string => `.rpi.${process.pid}.${randomBytes(4).toString('hex')}.cleared`;
const clearedNamePattern = /^\.rpi\.(\d+)\.[0-9a-f]{8}\.cleared$/;

export const rpiPaths = (stateDir: string): RpiPaths => ({
  dir: path.join(stateDir, 'rpi'),
  research: path.join(stateDir, 'rpi', 'research.md'),
  plan: path.join(stateDir, 'rpi', 'plan.md'),
});

const queues = new Map<string, SerialQueue>();

/** Runs one operation on a state folder's rpi/ at a time, so a read-modify-write of plan.md never interleaves. */
function exclusive<T>(stateDir: string, task: (files: RpiPaths) => Promise<T>): Promise<T> {
  const key = path.resolve(stateDir);
  let queue = queues.get(key);
  if (!queue) queues.set(key, (queue = new SerialQueue()));
  return queue.run(() => task(rpiPaths(stateDir)));
}

/**
 * What the files on disk say about the current run, each item with its latest check result; the
 * orchestrator decides the next phase from this.
 */
export function readRpiState(stateDir: string): Promise<RpiState> {
  return exclusive(stateDir, async (files) => {
    const research = await readArtifact(files.research);
    return { hasResearch: research !== null && research.trim().length > 0, ...(await planStateOf(stateDir, files)) };
  });
}

/** The plan's part of the state, all the Implement phase reads before each item: research.md is not read. */
export function readPlanState(stateDir: string): Promise<PlanState> {
  return exclusive(stateDir, (files) => planStateOf(stateDir, files));
}

export type PlanState = Omit<RpiState, 'hasResearch'>;

async function planStateOf(stateDir: string, files: RpiPaths): Promise<PlanState> {
  const plan = await readArtifact(files.plan);
  const { items, originalCount } = parsePlan(plan ?? '');
  const checks = await readCheckResults(currentChecksFile(stateDir), currentChecksLabel(stateDir));
  // An empty plan.md (emptied by hand: the engine writes whole files) is no plan, as an empty research.md
  // is no research; a plan with no items but its reason is one, for a request that changes nothing.
  const hasPlan = plan !== null && plan.trim().length > 0;
  return {
    hasPlan,
    items: withCheckResults(items, checks),
    originalCount,
    allDone: hasPlan && items.every((item) => item.status !== 'pending'),
    ...(checks.final ? { finalCheck: checks.final } : {}),
  };
}

export function readResearch(stateDir: string): Promise<string | null> {
  return exclusive(stateDir, (files) => readArtifact(files.research));
}

export function readPlan(stateDir: string): Promise<string | null> {
  return exclusive(stateDir, (files) => readArtifact(files.plan));
}

export function writeResearch(stateDir: string, text: string): Promise<void> {
  return exclusive(stateDir, (files) => writeArtifact(files.research, text));
}

/** Writes plan.md, recording its item count as `original_count` (the cap on new items) unless it has one. */
export function writePlan(stateDir: string, text: string): Promise<void> {
  return exclusive(stateDir, (files) => writeArtifact(files.plan, withOriginalCount(text)));
}

/** Marks the index-th item (0-based, file order) of the plan as it is on disk now; returns the items after. */
export function markItem(stateDir: string, index: number, status: PlanItemStatus, reason?: string): Promise<PlanItem[]> {
  return exclusive(stateDir, async (files) => {
    const before = await readExistingPlan(files.plan);
    const text = markPlanItem(before, index, status, reason);
    // A checkbox ticked is one byte: written where it lies; anything more replaces the file; no change, no write.
    if (text !== before && !(await writeOneByteEdit(files.plan, before, text))) await writeArtifact(files.plan, text);
    return withCheckResults(parsePlan(text).items, await readCheckResults(currentChecksFile(stateDir), currentChecksLabel(stateDir)));
  });
}

/**
 * Marks the index-th item done and appends the new pending items it proposed (within the plan's inflation
 * cap) in one write, so a crash leaves both or neither: with the tick alone on disk, a resumed run would
 * go past the item and never add what it proposed.
 */
export function completeItem(stateDir: string, index: number, proposed: readonly string[]): Promise<{ items: PlanItem[] } & Omit<AppendedPlanItems, 'text'>> {
  return exclusive(stateDir, async (files) => {
    const before = await readExistingPlan(files.plan);
    const { text, ...outcome } = appendPlanItems(markPlanItem(before, index, 'done'), proposed);
    if (text !== before && !(outcome.appended.length === 0 && (await writeOneByteEdit(files.plan, before, text)))) await writeArtifact(files.plan, text);
    const items = withCheckResults(parsePlan(text).items, await readCheckResults(currentChecksFile(stateDir), currentChecksLabel(stateDir)));
    return { items, ...outcome };
  });
}

/**
 * Forgets the current run's research, plan and record; a new request, undo and regenerate start from
 * nothing. All at once: rpi/ is renamed away in one step, then removed under its new name (never
 * following a link), so a crash never leaves part of a run there (its plan without its record, say).
 * Should the removal fail, the renamed folder is only clutter: the next open sweeps it (sweepClearedRpi).
 */
export function clearRpiState(stateDir: string): Promise<void> {
  return exclusive(stateDir, async (files) => {
    const name = clearedName();
    try {
      await rename(files.dir, path.join(stateDir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const state = await HeldFolder.open(stateDir);
    try {
      await state.removeEntry(name).catch(() => undefined);
    } finally {
      await state.close();
    }
  });
}

/**
 * Removes what clears cut short left in the held `.workbench/`: each rpi/ renamed away by an engine that
 * died before removing it (one still running may be removing its own, and is left to it). Returns the
 * names removed; one that cannot be removed now is left for a later open.
 */
export async function sweepClearedRpi(state: HeldFolder): Promise<string[]> {
  const swept: string[] = [];
  for (const entry of await state.list()) {
    const pid = clearedNamePattern.exec(entry.name)?.[1];
    if (pid === undefined || isProcessAlive(Number(pid))) continue;
    const removed = await state.removeEntry(entry.name).then(
      () => true,
      () => false,
    );
    if (removed) swept.push(entry.name);
  }
  return swept;
}

/**
 * Removes from the held folder's rpi/ the temp files of research.md and plan.md writes killed midway (a
 * live writer's are kept). Once, when a workbench has taken the folder's lock: no other engine writes
 * there after that (on this machine or another), and a write of this one that fails removes its own
 * temp file, so sweeping again before every read and write of a run never found anything.
 */
export async function removeDeadWritersTemps(state: HeldFolder): Promise<void> {
  if ((await state.lstat('rpi'))?.isDirectory()) await removeStaleTempFiles(path.join(state.path, 'rpi'));
}

async function writeArtifact(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(file, text);
}

async function readExistingPlan(file: string): Promise<string> {
  const text = await readArtifact(file);
  if (text === null) throw new Error(`There is no plan to change: ${file} does not exist.`);
  return text;
}
