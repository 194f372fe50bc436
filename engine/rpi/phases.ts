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

/** What every phase but the summary starts from besides its own inputs. */
interface Briefing {
  /** The project's instructions for coding agents (AGENTS.md); empty when it has none. */
  instructions: string;
  /** The files, folders and notes the user attached to the request, read for this context; empty when none. */
  attachments?: string;
}

export interface ResearchInput extends Briefing {
  request: string;
  manifest: string;
}

export interface PlanInput extends Briefing {
  request: string;
  research: string;
  /** A shallower map than research gets: enough to name files. */
  manifest: string;
}

export interface ImplementInput extends Briefing {
  request: string;
  item: PlanItem;
  /** Position of the item among all items, from 1. */
  step: number;
  items: readonly PlanItem[];
  planText: string;
  /** Rebuilt for this item, so it shows what earlier items created. */
  manifest: string;
  /** Set on the second attempt: why the first one failed. */
  retryReason?: string;
}

export interface SummaryInput {
  request: string;
  planText: string;
  /** One line per file created, changed or deleted during the run. */
  changes: readonly string[];
}

export const researchPhase: PhaseSpec<ResearchInput> = {
  phase: 'research',
  tools: toolsForPhase('research'),
  maxTurns: 30,
  finalAnswerAtCap: true,
  messages: ({ request, manifest, instructions, attachments }) => [
    { role: 'system', content: researchPrompt },
    {
      role: 'user',
      content: [section('File map of the project folder', manifest), ...instructionsSection(instructions), section('The user’s request', request), ...attachmentsSection(attachments)].join('\n\n'),
    },
  ],
};

export const planPhase: PhaseSpec<PlanInput> = {
  phase: 'plan',
  tools: toolsForPhase('plan'),
  maxTurns: 10,
  finalAnswerAtCap: true,
  messages: ({ request, research, manifest, instructions, attachments }) => [
    { role: 'system', content: planPrompt },
    {
      role: 'user',
      content: [
        section('The user’s request', request),
        ...attachmentsSection(attachments),
        ...instructionsSection(instructions),
        section('Research findings', research),
        section('Files in the project folder', manifest),
      ].join('\n\n'),
    },
  ],
};

export const implementPhase: PhaseSpec<ImplementInput> = {
  phase: 'implement',
  tools: toolsForPhase('implement'),
  maxTurns: 30,
  finalAnswerAtCap: false,
  messages: (input) => [
    { role: 'system', content: implementPrompt },
    {
      role: 'user',
      content: [
        section(`Current item (step ${input.step} of ${input.items.length})`, input.item.rawLine.replace(/^- \[.\]\s*/, '')),
        section('Progress so far', progressState(input.items, input.item)),
        ...(input.retryReason ? [section('Previous attempt at this item', retryNote(input.retryReason))] : []),
        section('The user’s request', input.request),
        ...attachmentsSection(input.attachments),
        ...instructionsSection(input.instructions),
        section('The whole plan', input.planText.trim()),
        section('File map of the project folder now', input.manifest),
      ].join('\n\n'),
    },
  ],
};

export const summaryPhase: PhaseSpec<SummaryInput> = {
  phase: 'summary',
  tools: [],
  maxTurns: 1,
  finalAnswerAtCap: false,
  messages: ({ request, planText, changes }) => [
    { role: 'system', content: summaryPrompt },
    {
      role: 'user',
      content: [
        section('The user’s request', request),
        section('The plan and its outcome', planText.trim() || '(no plan was written)'),
        section('Files created, changed or deleted during the run', changes.length ? changes.join('\n') : '(none)'),
      ].join('\n\n'),
    },
  ],
};

function instructionsSection(instructions: string): string[] {
  return instructions.trim() ? [section('Project instructions', instructions)] : [];
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

function retryNote(reason: string): string {
  return (
    `A first attempt at this item failed: ${reason}\n` +
    'Any changes it made are still in the folder. Look at the current state of the files before acting, then complete the item, ' +
    'avoiding what went wrong.'
  );
}
