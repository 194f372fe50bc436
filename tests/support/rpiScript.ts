import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { ApprovalSettings, Phase, WorkbenchEvent } from '../../engine/contract/index.js';
import type { RunOptions, Workbench } from '../../engine/index.js';
import { implementPrompt, planPrompt, researchPrompt, summaryPrompt } from '../../engine/rpi/prompts.js';
import type { FakeLlm, Script, ScriptedTurn } from './fakeLlm/index.js';

/** A turn that answers with text and no tool call: the phase's final answer. */
export const say = (text: string, extra: Partial<ScriptedTurn> = {}): ScriptedTurn => ({ text, ...extra });

/** A turn that calls one tool. */
export const call = (name: string, args: Record<string, unknown> | string, extra: Partial<ScriptedTurn> = {}): ScriptedTurn => ({
  toolCalls: [{ name, arguments: args }],
  ...extra,
});

/**
 * A script serving `turns` in order whose first answer (Research's) is held until `release()`: the run is
 * working meanwhile. `asked` resolves once that first request has come.
 */
export function heldFirstTurn(turns: readonly ScriptedTurn[]): { script: Script; asked: Promise<void>; release: () => void } {
  let askedNow = () => undefined as void;
  const asked = new Promise<void>((resolve) => (askedNow = resolve));
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const script: Script = async (_request, index) => {
    if (index === 0) {
      askedNow();
      await released;
    }
    return turns[index] ?? say('unexpected');
  };
  return { script, asked, release: () => release() };
}

/** A plan in DESIGN §3's format with one pending item per label. */
export function planText(...labels: string[]): string {
  return `# Execution Plan\n\n## Items\n${labels.map((label, index) => `- [ ] ${index + 1}. ${label} — do ${label.toLowerCase()}`).join('\n')}\n`;
}

/** A request of two steps: "Greeting" writes hello.txt and is done, "Workbook" fails twice ("no spreadsheet writer"). */
export function greetingDoneWorkbookFailed(research = 'A README.'): ScriptedTurn[] {
  return [
    say(research),
    say(planText('Greeting', 'Workbook')),
    call('write_file', { path: 'hello.txt', content: 'hi\n' }),
    say('Wrote hello.txt.'),
    say('FAILED: no spreadsheet writer is available'),
    say('FAILED: no spreadsheet writer is available'),
    say('Greeting done; the workbook failed.'),
  ];
}

/** Every change runs without asking (a checkpoint is still taken before each). */
export const autoApprovals: ApprovalSettings = { files: 'auto', commands: 'auto', timeoutSeconds: 600, reviewPlan: false };

/** Run options that point a workbench at the fake model, with small limits so faults are seen quickly. Changes run without asking unless `approvals` says otherwise. */
export function fakeModelOptions(llm: FakeLlm, overrides: Partial<RunOptions> & { toolMode?: 'native' | 'text' | 'auto' } = {}): RunOptions {
  const { toolMode = 'native', ...rest } = overrides;
  return {
    llmSettings: async () => ({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model', contextWindow: 32_000, toolMode }),
    llmClient: { firstByteTimeoutMs: 1500, idleTimeoutMs: 1500, maxRetries: 2, retryBaseDelayMs: 10 },
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    approvals: async () => autoApprovals,
    ...rest,
  };
}

/** Every event the workbench emits from now on, in order. */
export function recordEvents(workbench: Workbench): WorkbenchEvent[] {
  const events: WorkbenchEvent[] = [];
  workbench.subscribe((event) => events.push(event));
  return events;
}

/** The event types in order, with the phase of phase events: e.g. `phase-started:plan`. */
export function eventTrail(events: readonly WorkbenchEvent[], types?: readonly WorkbenchEvent['type'][]): string[] {
  return events
    .filter((event) => !types || types.includes(event.type))
    .map((event) => ('phase' in event && event.type.startsWith('phase-') ? `${event.type}:${event.phase}` : event.type));
}

const prompts: [Phase, string][] = [
  ['research', researchPrompt],
  ['plan', planPrompt],
  ['implement', implementPrompt],
  ['summary', summaryPrompt],
];

/** Which phase sent a recorded chat request, known by the system prompt it starts with. */
export function phaseOfRequest(request: ChatCompletionCreateParams): Phase | null {
  const system = request.messages[0];
  const content = system?.role === 'system' && typeof system.content === 'string' ? system.content : '';
  return prompts.find(([, prompt]) => content.startsWith(prompt))?.[0] ?? null;
}

/** All text a request carries (every message's content and tool-call arguments), to search for markers. */
export function requestText(request: ChatCompletionCreateParams): string {
  return JSON.stringify(request.messages);
}

/** The user message of a request (the phase's context), as text. */
export function firstUserText(request: ChatCompletionCreateParams): string {
  const user = request.messages.find((message) => message.role === 'user');
  return typeof user?.content === 'string' ? user.content : '';
}

/** The names of the tools a request offered the model (none for no request). */
export function toolNames(request: ChatCompletionCreateParams | undefined): string[] {
  return (request?.tools ?? []).map((tool) => (tool.type === 'function' ? tool.function.name : ''));
}

/** How many chat requests worked on the given plan step (first attempts, retries and their later turns). */
export function requestsForStep(llm: FakeLlm, step: number): number {
  return llm.chatRequests().filter((request) => phaseOfRequest(request) === 'implement' && firstUserText(request).includes(`## Current item (step ${step} of`)).length;
}
