import { usageTotalOf, type Message, type RpiFile, type RunFileAnswer, type RunSummary, type RunUsage, type UsageTotal } from '../contract/index.js';
import { tallyPlan } from '../contract/runHistory.js';
import { tallyChecks } from '../contract/checkText.js';
import { checksToKeep } from '../rpi/checkLog.js';
import { parsePlan } from '../rpi/planFile.js';
import { keepRun, keptRunIdPattern, listKeptRuns, readKeptFile } from '../rpi/runArchive.js';
import { readPlan, readResearch, readRpiState } from '../rpi/rpiState.js';
import { readRunRecord } from '../rpi/runRecord.js';
import { usageToKeep } from '../rpi/runUsage.js';
import type { ConversationStore } from '../store/conversation.js';
import { StateFileError } from '../store/stateFile.js';
import { RunRefusedError } from '../contract/runRefusedError.js';

/**
 * Keeps the run in rpi/ in runs/<its request's id>/ when it wrote research, a plan or usage: called before
 * rpi/ is cleared for another request, so a crash in between leaves both copies (keeping twice is harmless).
 * A run without a record says nothing of its request and is not kept.
 */
export async function keepCurrentRun(stateDir: string): Promise<void> {
  const record = await readRunRecord(stateDir);
  if (!record || !keptRunIdPattern.test(record.messageId)) return;
  const [research, plan, usage, checks] = await Promise.all([readResearch(stateDir), readPlan(stateDir), usageToKeep(stateDir), checksToKeep(stateDir)]);
  if (research !== null || plan !== null || usage !== null) await keepRun(stateDir, record.messageId, { research, plan, usage, checks });
}

/** What each request kept, by message id: its run's summary and its usage in all. */
export interface RequestHistory {
  runs: Record<string, RunSummary>;
  usage: Record<string, UsageTotal>;
  warnings: string[];
}

/**
 * What each request of the conversation kept, by message id: its run in rpi/ for the request it belongs
 * to, runs/<id>/ for earlier ones; its usage likewise, the current run's given as `current` (read from
 * rpi/, or as the active run counts it). Requests whose run wrote nothing (or ran before plan history was
 * kept) are absent, and so is every kept run whose request is not in the conversation. A kept run that
 * cannot be read safely is left out, with a warning saying why. Only ids the engine gives messages are
 * looked at, and the results have no prototype: an id such as "__proto__" or "constructor" from a planted
 * conversation or run.json can neither replace them nor read as a summary.
 */
export async function runSummaries(stateDir: string, messages: readonly Message[], current: RunUsage | null = null): Promise<RequestHistory> {
  const requests = new Set(messages.filter((message) => message.role === 'user' && keptRunIdPattern.test(message.id)).map((message) => message.id));
  const [kept, record, rpi] = await Promise.all([
    listKeptRuns(stateDir).catch((error: unknown) => {
      if (error instanceof StateFileError) return { runs: new Map<string, RunSummary>(), usage: new Map(), problems: [`${error.message} No earlier plan can be shown until then.`] };
      throw error;
    }),
    readRunRecord(stateDir),
    readRpiState(stateDir),
  ]);
  const runs = Object.create(null) as Record<string, RunSummary>;
  for (const [messageId, summary] of kept.runs) if (requests.has(messageId)) runs[messageId] = summary;
  if (record && requests.has(record.messageId) && (rpi.hasResearch || rpi.hasPlan)) {
    runs[record.messageId] = { research: rpi.hasResearch, plan: rpi.hasPlan ? tallyPlan(rpi.items) : null, ...(rpi.hasPlan ? { checks: tallyChecks(rpi.items, rpi.finalCheck) } : {}) };
  }
  const usage = Object.create(null) as Record<string, UsageTotal>;
  for (const [messageId, steps] of kept.usage) if (requests.has(messageId)) usage[messageId] = usageTotalOf(steps);
  if (current && requests.has(current.messageId) && current.steps.length > 0) usage[current.messageId] = usageTotalOf(current.steps);
  return { runs, usage, warnings: kept.problems };
}

const notYet: Record<RpiFile, string> = {
  research: 'Research has not been written yet for this request.',
  plan: 'No plan has been written yet for this request.',
};

const notKept: Record<RpiFile, string> = {
  research: 'No research was kept for this request: its run stopped before writing it, or it ran before the workbench kept plan history.',
  plan: 'No plan was kept for this request: its run stopped before writing one, or it ran before the workbench kept plan history.',
};

/**
 * The research.md or plan.md of a request of the conversation: from rpi/ when its run is the one there,
 * else as runs/ kept it. The id is only ever looked up in the conversation, never used as a path as given.
 */
export async function readRunFile(stateDir: string, conversation: ConversationStore, messageId: string, file: RpiFile): Promise<RunFileAnswer> {
  const { messages } = await conversation.load();
  const message = messages.find((candidate) => candidate.id === messageId);
  if (!message) throw new RunRefusedError(`There is no message "${messageId.slice(0, 120)}" in this folder's conversation.`);
  if (message.role !== 'user') throw new RunRefusedError('That message is an answer: research and plans belong to requests, so ask with the id of a user message.');
  const record = await readRunRecord(stateDir);
  if (record?.messageId === message.id) {
    const text = file === 'research' ? await readResearch(stateDir) : await readPlan(stateDir);
    return text === null ? { text: null, reason: notYet[file] } : answer(file, text);
  }
  const text = keptRunIdPattern.test(message.id) ? await readKeptFile(stateDir, message.id, file) : null;
  return text === null ? { text: null, reason: notKept[file] } : answer(file, text);
}

function answer(file: RpiFile, text: string): RunFileAnswer {
  return file === 'plan' ? { text, items: parsePlan(text).items } : { text };
}
