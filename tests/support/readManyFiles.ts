import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import type { UnsequencedEvent } from '../../engine/contract/index.js';
import type { AgentLoopResult } from '../../engine/agent/agentLoopTypes.js';
import { runAgentLoop } from '../../engine/agent/runAgentLoop.js';
import { defaultLoopLimits } from '../../engine/agent/loopLimits.js';
import { ToolModeState } from '../../engine/agent/toolMode.js';
import { createLlmClient } from '../../engine/llm/openaiClient.js';
import { estimatePromptTokens } from '../../engine/llm/tokenEstimate.js';
import { researchPhase } from '../../engine/rpi/phases.js';
import { openToolLog, type ToolLog } from '../../engine/store/toolLog.js';
import { getFileMap } from '../../engine/tools/getFileMap.js';
import type { ToolDefinition } from '../../engine/tools/toolCatalog.js';
import type { ScriptedTurn } from './fakeLlm/index.js';
import { toolContextFor } from './toolContext.js';

/**
 * The job the context budget is measured on: a research phase that reads 40 source files of 60 KB whole,
 * two per turn, then answers. Shared by the tests in this folder and `npm run bench -- context`.
 */
export const fileCount = 40;
/** The job's file size; the bench also runs it with small files, as most reads are. */
export const fileChars = 60_000;
export const readsPerTurn = 2;
export const request = 'Find every place that computes a value from the alpha table and explain how the results are combined.';

export const filePath = (index: number) => `src/module_${String(index + 1).padStart(2, '0')}.ts`;

function moduleSource(index: number, chars: number): string {
  const lines: string[] = [];
  for (let line = 1; lines.join('\n').length < chars; line += 1) {
    lines.push(`export const value_${index}_${line} = combine(table${line % 7}, ${(line * 37 + index) % 1000}, "row ${line} of module ${index + 1}");`);
  }
  return `${lines.join('\n').slice(0, chars)}\n`;
}

export async function writeManyFiles(root: string, chars = fileChars): Promise<void> {
  await mkdir(path.join(root, 'src'), { recursive: true });
  for (let index = 0; index < fileCount; index += 1) await writeFile(path.join(root, filePath(index)), moduleSource(index, chars));
}

/** The turns that read every file, `readsPerTurn` at a time. */
export function readTurns(): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let first = 0; first < fileCount; first += readsPerTurn) {
    const paths = Array.from({ length: Math.min(readsPerTurn, fileCount - first) }, (_, offset) => filePath(first + offset));
    turns.push({ toolCalls: paths.map((file) => ({ name: 'read_file', arguments: { path: file } })) });
  }
  return turns;
}

export interface ResearchLoop {
  result: AgentLoopResult;
  events: UnsequencedEvent[];
  toolLog: ToolLog;
}

/** The research phase as RPI runs it (its prompt, file map, tools and turn cap) against a model at `baseUrl`. */
export async function runResearch({ root, baseUrl, contextWindow }: { root: string; baseUrl: string; contextWindow: number }): Promise<ResearchLoop> {
  const { signal, ...toolContext } = await toolContextFor(root);
  const toolLog = await openToolLog(path.join(root, '.workbench'));
  const manifest = (await getFileMap.run({ path: '.', depth: 3 }, { ...toolContext, signal, recall: (id) => toolLog.recall(id) })).text;
  const events: UnsequencedEvent[] = [];
  let calls = 0;
  const result = await runAgentLoop({
    phase: 'research',
    runId: 'run-context',
    llm: createLlmClient({ baseUrl, apiKey: null, model: 'fake-model' }),
    toolMode: new ToolModeState('native'),
    messages: researchPhase.messages({ request, manifest, instructions: '' }),
    tools: researchPhase.tools,
    maxTurns: researchPhase.maxTurns,
    limits: { ...defaultLoopLimits, timeoutMs: 5 * 60_000 },
    finalAnswerAtCap: researchPhase.finalAnswerAtCap,
    toolContext: { ...toolContext, recall: (id) => toolLog.recall(id) },
    toolLog,
    emit: (event) => events.push(event),
    nextCallId: () => `c${(calls += 1)}`,
    contextWindow,
    signal,
  });
  // Its appends are done: the file kept open for them is closed (recall reads it on its own).
  await toolLog.close();
  return { result, events, toolLog };
}

/** A recorded request's size by the engine's own estimate: messages and tool definitions. */
export function requestTokens(body: ChatCompletionCreateParams): Promise<number> {
  return estimatePromptTokens(body.messages, body.tools as ToolDefinition[] | undefined);
}

/** How many leading messages two requests share, and those messages' size (the part a provider's prompt cache can reuse). */
export async function sharedPrefixTokens(previous: ChatCompletionCreateParams, next: ChatCompletionCreateParams): Promise<number> {
  let same = 0;
  while (same < previous.messages.length && same < next.messages.length && JSON.stringify(previous.messages[same]) === JSON.stringify(next.messages[same])) same += 1;
  const toolsSame = JSON.stringify(previous.tools ?? []) === JSON.stringify(next.tools ?? []);
  if (!toolsSame) return 0;
  const priming = await estimatePromptTokens([]);
  return (await estimatePromptTokens(next.messages.slice(0, same), next.tools as ToolDefinition[] | undefined)) - priming;
}
