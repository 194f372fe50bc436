import type { Stats } from 'node:fs';
import type { RpiFile, RunSummary, StepUsage } from '../contract/index.js';
import { tallyChecks } from '../contract/checkText.js';
import { tallyPlan } from '../contract/runHistory.js';
import { removeStaleTempFiles, writeFileAtomic } from '../files/atomicWrite.js';
import { notPlain, readStateText, StateFileError } from '../store/stateFile.js';
import { HeldFolder, kindOf, NotAPlainFolderError } from '../workspace/heldFolder.js';
import { checksFileName, readCheckResults, withCheckResults } from './checkLog.js';
import { parsePlan } from './planFile.js';
import { rpiFileMaxBytes } from './rpiState.js';
import { readUsageLines, stepsOf, usageFileName } from './runUsage.js';
import { shownStateDir } from '../store/stateDirNames.js';

/** `runs/<messageId>/` in a conversation's folder: research.md and plan.md of each earlier request, kept when a newer one clears rpi/. */
export const runsDirName = 'runs';

/**
 * The ids the engine gives messages (see newMessage). Only such a name ever becomes a folder of runs/:
 * an id read from a planted conversation ("../x", "a/b") is never made into a path.
 */
export const keptRunIdPattern = /^m-[0-9A-Za-z-]{1,100}$/;

export const keptFileNames: Record<RpiFile, string> = { research: 'research.md', plan: 'plan.md' };

/** The research, plan and usage log of one run, as rpi/ held them; null for a file the run did not write. */
export type KeptFiles = Record<RpiFile, string | null> & { usage: Buffer | null; checks: Buffer | null };

/**
 * The summaries of the kept runs by message id, each kept run's usage
 * per step, and a sentence for each entry of runs/ (or line of a usage log) that was not read.
 */
export interface KeptRunListing {
  runs: Map<string, RunSummary>;
  usage: Map<string, StepUsage[]>;
  problems: string[];
}

/**
 * Keeps a run's files in runs/<messageId>/, each replaced atomically. A file the run did not write (null)
 * leaves the kept one as it is: keeping the same run again after a crash, from an rpi/ partly cleared,
 * must never lose what was kept the first time.
 */
export async function keepRun(stateDir: string, messageId: string, files: KeptFiles): Promise<void> {
  assertKeptRunId(messageId);
  await inRunFolder(stateDir, messageId, true, async (folder) => {
    await removeStaleTempFiles(folder.path);
    for (const [file, name] of Object.entries(keptFileNames) as [RpiFile, string][]) {
      const text = files[file];
      if (text !== null) await writeFileAtomic(folder.entry(name), text);
    }
    if (files.usage !== null) await writeFileAtomic(folder.entry(usageFileName), files.usage);
    if (files.checks !== null) await writeFileAtomic(folder.entry(checksFileName), files.checks);
  });
}

/** The kept research.md or plan.md of the request, or null when runs/ holds none for it. */
export async function readKeptFile(stateDir: string, messageId: string, file: RpiFile): Promise<string | null> {
  assertKeptRunId(messageId);
  return inRunFolder(stateDir, messageId, false, (folder) => readKept(folder, file)).then((text) => text ?? null);
}

/** What every run in runs/ kept; an entry that is not a plain folder of plain files is left out and named in `problems`. */
export async function listKeptRuns(stateDir: string): Promise<KeptRunListing> {
  const listing: KeptRunListing = { runs: new Map(), usage: new Map(), problems: [] };
  await inRunsFolder(stateDir, false, async (runs) => {
    for (const entry of await runs.list()) {
      if (!keptRunIdPattern.test(entry.name)) continue;
      try {
        const { summary, usage, warnings } = await summarize(runs, shownRunsDir(stateDir), entry.name);
        listing.runs.set(entry.name, summary);
        if (usage.length > 0) listing.usage.set(entry.name, usage);
        listing.problems.push(...warnings);
      } catch (error) {
        if (!(error instanceof StateFileError)) throw error;
        listing.problems.push(`${error.message} The plan history of that request is not shown.`);
      }
    }
  });
  return listing;
}

/** An entry of runs/ that was to be removed and is still there, and why. */
export interface KeptRunLeft {
  name: string;
  reason: string;
}

/**
 * Removes each entry of runs/ for which `cut` says so (undo and regenerate cut those requests from the
 * conversation), never following a link. An entry that cannot be removed is left, and returned with
 * why, while the others are still removed; runs/ itself not being a plain folder throws a StateFileError.
 */
export async function removeKeptRuns(stateDir: string, cut: (name: string) => boolean): Promise<KeptRunLeft[]> {
  const left: KeptRunLeft[] = [];
  await inRunsFolder(stateDir, false, async (runs) => {
    for (const entry of await runs.list()) {
      if (!cut(entry.name)) continue;
      await runs.removeEntry(entry.name).catch((error: unknown) => left.push({ name: entry.name, reason: removalFailure(error) }));
    }
  });
  return left;
}

/** Why a removal failed, in words that name no descriptor path. */
function removalFailure(error: unknown): string {
  if (error instanceof NotAPlainFolderError) return `something in it ${error.found === 'missing' ? 'vanished' : `became a ${error.found}`} while it was removed`;
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code === 'string') return `${syscall ?? 'removal'} failed with ${code}`;
  return error instanceof Error ? error.message : String(error);
}

async function summarize(runs: HeldFolder, shownRuns: string, messageId: string): Promise<{ summary: RunSummary; usage: StepUsage[]; warnings: string[] }> {
  const folder = await stepInto(runs, messageId, false, shownRuns);
  try {
    const research = await readKept(folder, 'research');
    const plan = await readKept(folder, 'plan');
    const { lines, warnings } = await readUsageLines(folder.entry(usageFileName), `${shownRuns}/${messageId}/${usageFileName}`);
    const checks = await readCheckResults(folder.entry(checksFileName), `${shownRuns}/${messageId}/${checksFileName}`);
    const items = plan === null ? null : withCheckResults(parsePlan(plan).items, checks);
    return {
      summary: { research: research !== null && research.trim().length > 0, plan: items && tallyPlan(items), ...(items ? { checks: tallyChecks(items, checks.final) } : {}) },
      usage: stepsOf(lines),
      warnings: [...warnings, ...checks.warnings],
    };
  } finally {
    await folder.close();
  }
}

function readKept(folder: HeldFolder, file: RpiFile): Promise<string | null> {
  return readStateText(folder.entry(keptFileNames[file]), { maxBytes: rpiFileMaxBytes });
}

function assertKeptRunId(messageId: string): void {
  if (!keptRunIdPattern.test(messageId)) throw new StateFileError(`"${messageId.slice(0, 120)}" is not a message id of this workbench, so it has no kept run.`);
}

/** Runs `use` with runs/ held; without `create`, a missing runs/ gives undefined and runs nothing. */
async function inRunsFolder<T>(stateDir: string, create: boolean, use: (runs: HeldFolder) => Promise<T>): Promise<T | undefined> {
  const state = await HeldFolder.open(stateDir);
  let runs: HeldFolder | null;
  try {
    runs = await stepIntoIfThere(state, runsDirName, create, shownStateDir(stateDir));
  } finally {
    await state.close();
  }
  if (!runs) return undefined;
  try {
    return await use(runs);
  } finally {
    await runs.close();
  }
}

async function inRunFolder<T>(stateDir: string, messageId: string, create: boolean, use: (folder: HeldFolder) => Promise<T>): Promise<T | undefined> {
  return inRunsFolder(stateDir, create, async (runs) => {
    const folder = await stepIntoIfThere(runs, messageId, create, shownRunsDir(stateDir));
    if (!folder) return undefined;
    try {
      return await use(folder);
    } finally {
      await folder.close();
    }
  });
}

async function stepIntoIfThere(parent: HeldFolder, name: string, create: boolean, shownParent: string): Promise<HeldFolder | null> {
  if (!create && (await parent.lstat(name)) === null) return null;
  return stepInto(parent, name, create, shownParent);
}

/** Where a conversation's plan history is, for messages: `.workbench/conversations/<id>/runs`. */
function shownRunsDir(stateDir: string): string {
  return `${shownStateDir(stateDir)}/${runsDirName}`;
}

/**
 * Steps into a folder of the state folder without following a link; anything else there is refused with
 * a sentence naming it under `shownParent` (as messages name that parent).
 */
async function stepInto(parent: HeldFolder, name: string, create: boolean, shownParent: string): Promise<HeldFolder> {
  try {
    return await parent.child(name, { create, mode: 0o700 });
  } catch (error) {
    if (!(error instanceof NotAPlainFolderError)) throw error;
    const what = folderProblem(await parent.lstat(name));
    throw new StateFileError(
      `${shownParent}/${name} ${what}, not a folder the workbench made; the workbench never follows links in .workbench/. Remove it and try again.`,
    );
  }
}

function folderProblem(stats: Stats | null): string {
  if (!stats) return 'vanished while it was opened';
  if (stats.isSymbolicLink() || stats.isFile()) return `is a ${kindOf(stats)}`;
  return notPlain(stats) ?? 'is not a plain folder';
}
