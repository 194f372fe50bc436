import type { Phase, PlanItem } from '../contract/index.js';
import type { ChatMessage } from '../llm/llmTypes.js';
import type { Tool } from '../tools/tool.js';
import { toolsForPhase } from '../tools/toolCatalog.js';
import { implementPrompt, planPrompt, researchPrompt, summaryPrompt } from './prompts.js';

/**
 * A phase as data: its tools, its turn cap, whether the turn cap asks for a final answer or fails, and
 * how its fresh context is built. The orchestrator runs them; the agent loop knows none of them.
 */
export interface PhaseSpec<Input> {
  phase: Phase;
  tools: readonly Tool[];
  maxTurns: number;
  finalAnswerAtCap: boolean;
  messages(input: Input): ChatMessage[];
}

/**
 * What every phase but the summary starts from besides its own inputs. Read once when the phase starts
 * and kept for all its requests, so that they begin with the same bytes (providers cache prompts by
 * prefix): a file an earlier item changed is still given as it was then, and the item is told it changed.
 */
interface Briefing {
  request: string;
  /** The project's instructions for coding agents (AGENTS.md); empty when it has none. */
  instructions: string;
  /** The files, folders and notes the user attached to the request, as read; empty when none. */
  attachments?: string;
}

export interface ResearchInput extends Briefing {
  manifest: string;
  /** The answers the user gave an earlier, stopped run of this request (answersText); empty or absent when none. */
  answers?: string;
}

export interface PlanInput extends Briefing {
  research: string;
  /** A shallower map than research gets: enough to name files. */
  manifest: string;
}

/** What Implement gives every item the same way: the part of each request that stays put for the phase. */
export interface ImplementStart extends Briefing {
  /** plan.md as it was when the phase began, every item shown pending (withoutOutcomes). */
  approvedPlan: string;
  /** The file map as it was when the phase began. */
  manifest: string;
  /** The user's answers to the questions of Research and Plan (answersText); empty or absent when none were asked. */
  answers?: string;
}

export interface ImplementInput {
  start: ImplementStart;
  item: PlanItem;
  /** Position of the item among all items, from 1. */
  step: number;
  /** Every item as plan.md has them now, with their outcomes. */
  items: readonly PlanItem[];
  /** Items appended to the plan since the phase began (proposed by earlier items). */
  added: readonly PlanItem[];
  /** Set on the second attempt: why the first one failed. */
  retryReason?: string;
  /** Set on a fix round: the item said it was done, and its check failed. */
  fixRound?: FixRound;
  /** The instructions of the folders the item names (readFolderInstructions); empty when none. */
  folderInstructions: string;
  /** One line per file changed since the phase began (ChangeRecords.since); empty when none. */
  changedFiles: readonly string[];
}

/** A fix round after the item's check failed: which one, the check's failure, and its output (cut to fit). */
export interface FixRound {
  round: number;
  of: number;
  /** "check `npm test` exited 1". */
  reason: string;
  output: string;
}

export interface SummaryInput {
  request: string;
  planText: string;
  /** One line per file created, changed or deleted during the run. */
  changes: readonly string[];
  /** One line per check that ran, with its result; empty when none did. */
  checks: readonly string[];
}

/**
 * A fresh context: the system prompt, then one user message whose stable sections come first and the
 * ones that change between requests of the phase after them, so each request repeats the earlier ones'
 * bytes as far as possible. One message, not two: chat templates of several local models (Mistral,
 * Gemma) refuse two user messages in a row, and the provider's cache matches bytes, not messages.
 */
function freshContext(system: string, stable: readonly string[], changing: readonly string[] = []): ChatMessage[] {
  const stableText = stable.join('\n\n');
  const content = [...stable, ...changing].join('\n\n');
  return [
    { role: 'system', content: system, cacheBreakpoint: true },
    // The stable sections end a cacheable prefix (for servers that cache only up to a marked point).
    { role: 'user', content, cacheBreakpoint: changing.length > 0 ? stableText.length + 2 : true },
  ];
}

/** The request, the project's instructions and the attached items, in this order, at the start of every phase's context. */
function briefingSections({ request, instructions, attachments }: Briefing): string[] {
  return [section('The user’s request', request), ...instructionsSection(instructions), ...attachmentsSection(attachments)];
}

export const researchPhase: PhaseSpec<ResearchInput> = {
  phase: 'research',
  tools: toolsForPhase('research'),
  maxTurns: 30,
  finalAnswerAtCap: true,
  messages: (input) =>
    freshContext(researchPrompt, [
      ...briefingSections(input),
      ...answersSection('Answers from the user so far (do not ask these again)', input.answers),
      section('File map of the project folder', input.manifest),
    ]),
};

export const planPhase: PhaseSpec<PlanInput> = {
  phase: 'plan',
  tools: toolsForPhase('plan'),
  maxTurns: 10,
  finalAnswerAtCap: true,
  messages: (input) =>
    freshContext(planPrompt, [...briefingSections(input), section('Research findings', input.research), section('Files in the project folder', input.manifest)]),
};

export const implementPhase: PhaseSpec<ImplementInput> = {
  phase: 'implement',
  tools: toolsForPhase('implement'),
  maxTurns: 30,
  finalAnswerAtCap: false,
  messages: (input) => freshContext(implementPrompt, implementStable(input.start), implementChanging(input)),
};

/** The same for every item of the phase: the briefing, the plan as approved, the file map from when the phase began. */
function implementStable(start: ImplementStart): string[] {
  return [
    ...briefingSections(start),
    ...answersSection('Answers from the user', start.answers),
    section('The whole plan (each item’s outcome is under “Progress so far” below)', start.approvedPlan.trim()),
    section('File map of the project folder when this phase began (files changed since are listed below)', start.manifest),
  ];
}

/** What differs from item to item, after the stable part. */
function implementChanging(input: ImplementInput): string[] {
  return [
    section('Progress so far', progressState(input.items, input.item)),
    ...(input.added.length ? [section('Items added to the plan while implementing', input.added.map(itemText).join('\n'))] : []),
    section(`Current item (step ${input.step} of ${input.items.length})`, itemText(input.item)),
    ...(input.retryReason ? [section('Previous attempt at this item', retryNote(input.retryReason))] : []),
    ...(input.fixRound ? [section(`The check of this item failed (fix round ${input.fixRound.round} of ${input.fixRound.of})`, fixNote(input.fixRound))] : []),
    ...(input.folderInstructions.trim() ? [section('Instructions for the folders of this item', input.folderInstructions)] : []),
    ...(input.changedFiles.length ? [section('Files changed since this phase began', input.changedFiles.join('\n'))] : []),
  ];
}

/** An item's line without its checkbox: "2. Label — description". */
function itemText(item: PlanItem): string {
  return item.rawLine.replace(/^- \[.\]\s*/, '');
}

export const summaryPhase: PhaseSpec<SummaryInput> = {
  phase: 'summary',
  tools: [],
  maxTurns: 1,
  finalAnswerAtCap: false,
  messages: ({ request, planText, changes, checks }) => [
    { role: 'system', content: summaryPrompt },
    {
      role: 'user',
      content: [
        section('The user’s request', request),
        section('The plan and its outcome', planText.trim() || '(no plan was written)'),
        section('Files created, changed or deleted during the run', changes.length ? changes.join('\n') : '(none)'),
        ...(checks.length ? [section('Checks run after the items (the check command each ran, and its result)', checks.join('\n'))] : []),
      ].join('\n\n'),
    },
  ],
};

function instructionsSection(instructions: string): string[] {
  return instructions.trim() ? [section('Project instructions', instructions)] : [];
}

function answersSection(title: string, answers = ''): string[] {
  return answers.trim() ? [section(title, answers)] : [];
}

function attachmentsSection(attachments = ''): string[] {
  return attachments.trim() ? [section('Attached by the user', attachments)] : [];
}

function section(title: string, body: string): string {
  return `## ${title}\n${body.trim() || '(empty)'}`;
}

/** The compact "done so far / errors so far" state (seed 001) the item's fresh context starts from. */
function progressState(items: readonly PlanItem[], current: PlanItem): string {
  const done = items.filter((item) => item.status === 'done');
  const failed = items.filter((item) => item.status === 'failed');
  const later = items.filter((item) => item.status === 'pending' && item.index !== current.index);
  const name = (item: PlanItem) => `${item.number}. ${item.label}`;
  return [
    `Done (${done.length}): ${done.length ? done.map(name).join('; ') : 'none yet'}.`,
    `Failed (${failed.length}): ${failed.length ? failed.map((item) => `${name(item)} — ${item.failure ?? 'no reason given'}`).join('; ') : 'none'}.`,
    `Still to do after this one (${later.length}): ${later.length ? later.map(name).join('; ') : 'none'}.`,
  ].join('\n');
}

function fixNote({ reason, output }: FixRound): string {
  return (
    `You said this item was done, but its ${reason}. Its output:\n${output}\n\n` +
    'Your changes are still in the folder. Find the cause in the output, fix it, and reply as done again: the check runs again after you.'
  );
}

function retryNote(reason: string): string {
  return (
    `A first attempt at this item failed: ${reason}\n` +
    'Any changes it made are still in the folder. Look at the current state of the files before acting, then complete the item, ' +
    'avoiding what went wrong.'
  );
}
