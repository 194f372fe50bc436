import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { PlanItem, PlanItemStatus, RpiState } from '../contract/index.js';
import { removeStaleTempFiles, writeFileAtomic } from '../store/atomicWrite.js';
import { SerialQueue } from '../store/serialQueue.js';
import { readStateText } from '../store/stateFile.js';
import { appendPlanItems, markPlanItem, parsePlan, withOriginalCount, type AppendedPlanItems } from './planFile.js';

export interface RpiPaths {
  dir: string;
  research: string;
  plan: string;
}

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

/** What the files on disk say about the current run; the orchestrator decides the next phase from this. */
export function readRpiState(stateDir: string): Promise<RpiState> {
  return exclusive(stateDir, async (files) => {
    await removeStaleTempFiles(files.dir);
    const research = await readStateText(files.research);
    const plan = await readStateText(files.plan);
    const { items, originalCount } = parsePlan(plan ?? '');
    return {
      hasResearch: research !== null && research.trim().length > 0,
      hasPlan: plan !== null,
      items,
      originalCount,
      allDone: plan !== null && items.every((item) => item.status !== 'pending'),
    };
  });
}

export function readResearch(stateDir: string): Promise<string | null> {
  return exclusive(stateDir, (files) => readStateText(files.research));
}

export function readPlan(stateDir: string): Promise<string | null> {
  return exclusive(stateDir, (files) => readStateText(files.plan));
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
    const text = markPlanItem(await readExistingPlan(files.plan), index, status, reason);
    await writeArtifact(files.plan, text);
    return parsePlan(text).items;
  });
}

/** Appends new pending items to the plan on disk, within its inflation cap. */
export function appendItems(stateDir: string, lines: readonly string[]): Promise<Omit<AppendedPlanItems, 'text'>> {
  return exclusive(stateDir, async (files) => {
    const { text, ...outcome } = appendPlanItems(await readExistingPlan(files.plan), lines);
    if (outcome.appended.length > 0) await writeArtifact(files.plan, text);
    return outcome;
  });
}

/** Forgets the current run's research and plan; a new request, undo and regenerate start from nothing. */
export function clearRpiState(stateDir: string): Promise<void> {
  return exclusive(stateDir, (files) => rm(files.dir, { recursive: true, force: true }));
}

async function writeArtifact(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  await removeStaleTempFiles(dir);
  await writeFileAtomic(file, text);
}

async function readExistingPlan(file: string): Promise<string> {
  const text = await readStateText(file);
  if (text === null) throw new Error(`There is no plan to change: ${file} does not exist.`);
  return text;
}
