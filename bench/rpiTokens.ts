import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { OpenAI } from 'openai';
import type { ChatCompletionCreateParams, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { runAgentLoop } from '../engine/agent/runAgentLoop.js';
import { defaultLoopLimits } from '../engine/agent/loopLimits.js';
import { ToolModeState } from '../engine/agent/toolMode.js';
import type { Phase } from '../engine/contract/index.js';
import { createLlmClient } from '../engine/llm/openaiClient.js';
import { estimatePromptTokens } from '../engine/llm/tokenEstimate.js';
import { openToolLog } from '../engine/store/toolLog.js';
import { getFileMap } from '../engine/tools/getFileMap.js';
import { toolsForPhase, type ToolDefinition } from '../engine/tools/toolCatalog.js';
import { openWorkbench, type RunOptions } from '../engine/index.js';
import { Workspace } from '../engine/workspace/workspace.js';
import { startFakeLlm, type FakeLlm } from '../tests/support/fakeLlm/index.js';
import { autoApprovals, phaseOfRequest } from '../tests/support/rpiScript.js';
import { entities, moduleSource, writeProject } from './rpiProject.js';
import { request, rpiScript, singleLoopScript, work } from './rpiWork.js';
import { format, interleavedMedians, median } from './tools.js';
import { startRun } from '../tests/support/startRun.js';

/**
 * Context size: the same scripted 12-item job (research reads, a 12-item plan, per item a read, five
 * edits and a grep, then a summary) run (a) through RPI via openWorkbench + send, each phase and each item
 * in a fresh context, and (b) through one runAgentLoop with every tool that keeps its whole history, the
 * single-loop design RPI replaced (seed 003). Both use the engine's real LLM client over HTTP against the
 * fake model, real tools on a real temp project, and the same replies; every request body the fake
 * received is measured with the engine's own tokenizer (estimatePromptTokens). Target: RPI's peak prompt
 * at most 0.35× the single loop's.
 *
 * Engine time per turn: with a zero-latency fake, a whole RPI run divided by its model requests (tools,
 * state files and events included), against the bare openai SDK streaming the same recorded request
 * bodies to the same fake: the part of a turn that is the engine's own.
 */

const rounds = 5;
const target = 0.35;
/** Goal: the engine's own time per turn (outside tool calls) at most this many times the bare SDK's per request. */
const engineGoal = 2;
const commandEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

const singleLoopPrompt = `You are a coding agent working in the user's project folder. Handle the user's request in this one conversation, from start to finish:
1. Research: read the files that matter (start from the file map below; use get_file_map, list_files, search_files and read_file) until you know how the relevant parts work. Write down your findings.
2. Plan: write a short numbered plan of the changes, each item one coherent change with the files it touches and how to verify it.
3. Implement: carry out the items in order. Read before you write; change files with edit_file (exact old_text, matching once) or write_file for new files; use run_command for builds, tests and checks. Verify each item before going on.
Paths are relative to the project folder; you cannot reach outside it. When every item is done and verified, reply without a tool call with a short summary for the user: what changed (files), how it was verified, and anything left undone.`;

interface Usage {
  requests: number;
  peak: number;
  total: number;
  /** The peak prompt of each phase; only RPI requests are known by phase. */
  peakByPhase: Map<Phase, number>;
}

async function measure(bodies: readonly ChatCompletionCreateParams[]): Promise<Usage> {
  const peakByPhase = new Map<Phase, number>();
  let peak = 0;
  let total = 0;
  for (const body of bodies) {
    const tokens = await estimatePromptTokens(body.messages, body.tools as ToolDefinition[] | undefined);
    const phase = phaseOfRequest(body);
    if (phase) peakByPhase.set(phase, Math.max(peakByPhase.get(phase) ?? 0, tokens));
    peak = Math.max(peak, tokens);
    total += tokens;
  }
  return { requests: bodies.length, peak, total, peakByPhase };
}

async function tempFolder(prefix: string): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
}

/** Fails the bench when the scripted job did not really happen: every module must end migrated. */
async function checkDone(root: string, llm: FakeLlm, variant: string): Promise<void> {
  if (llm.scriptErrors.length > 0) throw new Error(`${variant}: the fake model failed: ${llm.scriptErrors.join('; ')}`);
  for (const entity of entities) {
    const file = path.join(root, 'src', `${entity.module}.ts`);
    if ((await readFile(file, 'utf8')) !== moduleSource(entity, 'app')) throw new Error(`${variant}: src/${entity.module}.ts was not migrated as scripted.`);
  }
}

function rpiOptions(llm: FakeLlm): RunOptions {
  return {
    llmSettings: async () => ({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model', contextWindow: 128_000, toolMode: 'native' }),
    env: commandEnv,
    // No one is there to answer: every change runs, as under the "auto" policies (a checkpoint is still taken before each).
    approvals: async () => autoApprovals,
  };
}

/** A project, a fake model and an opened workbench, ready to send the request. */
async function prepareRpi() {
  const root = await tempFolder('rpi-bench-rpi-');
  await writeProject(root);
  const llm = await startFakeLlm({ script: rpiScript(work) });
  const workbench = await openWorkbench(root, rpiOptions(llm));
  let toolMs = 0;
  workbench.subscribe((event) => {
    if (event.type === 'tool-finished') toolMs += event.durationMs;
  });
  return {
    llm,
    /** Time spent inside tool calls (reads, edits, grep commands), as the tool-finished events report it. */
    toolMs: () => toolMs,
    async run() {
      const result = await (await startRun(workbench, request)).finished;
      if (result.status !== 'done') throw new Error(`RPI run ${result.status} in ${result.phase ?? '?'}: ${result.error ?? ''}`);
    },
    verify: () => checkDone(root, llm, 'RPI'),
    async dispose() {
      await workbench.close();
      await llm.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

async function runSingleLoop(): Promise<ChatCompletionCreateParams[]> {
  const root = await tempFolder('rpi-bench-single-');
  const stateDir = await tempFolder('rpi-bench-single-state-');
  const llm = await startFakeLlm({ script: singleLoopScript(work) });
  try {
    await writeProject(root);
    const signal = new AbortController().signal;
    const toolLog = await openToolLog(stateDir);
    const toolContext = { workspace: await Workspace.at(root), recall: (id: number) => toolLog.recall(id), childEnv: commandEnv, log: () => {}, maskSecrets: (text: string) => text };
    const manifest = await getFileMap.run({ path: '.', depth: 3 }, { ...toolContext, signal });
    let calls = 0;
    const result = await runAgentLoop({
      phase: 'implement',
      runId: 'single-loop',
      llm: createLlmClient({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model' }),
      toolMode: new ToolModeState('native'),
      messages: [
        { role: 'system', content: singleLoopPrompt },
        { role: 'user', content: `## File map of the project folder\n${manifest}\n\n## The user’s request\n${request}` },
      ],
      tools: toolsForPhase('implement'),
      maxTurns: 500,
      limits: { ...defaultLoopLimits, timeoutMs: 10 * 60_000 },
      finalAnswerAtCap: false,
      toolContext,
      toolLog,
      emit: () => {},
      nextCallId: () => `single-${(calls += 1)}`,
      contextWindow: 128_000,
      signal,
    });
    if (!result.ok) throw new Error(`single loop failed (${result.failure}): ${result.error}`);
    await checkDone(root, llm, 'single loop');
    return llm.chatRequests();
  } finally {
    await llm.close();
    await Promise.all([root, stateDir].map((folder) => rm(folder, { recursive: true, force: true })));
  }
}

/** The bare SDK side: the recorded RPI request bodies streamed in order to a fake serving the same replies. */
async function prepareReplay(bodies: readonly ChatCompletionCreateParams[]) {
  const llm = await startFakeLlm({ script: rpiScript(work) });
  const sdk = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'no-key', maxRetries: 2 });
  return {
    async run() {
      let chunks = 0;
      for (const body of bodies) {
        const stream = await sdk.chat.completions.create(body as ChatCompletionCreateParamsStreaming);
        for await (const chunk of stream) chunks += chunk.choices.length;
      }
      if (chunks === 0 || llm.scriptErrors.length > 0) throw new Error(`replay failed: ${llm.scriptErrors.join('; ')}`);
    },
    dispose: () => llm.close(),
  };
}

const tokens = (value: number) => value.toLocaleString('en-US');
const ratio = (value: number) => `${value.toFixed(2)}×`;

function printTokens(rpi: Usage, single: Usage, toolCalls: number): void {
  const row = (label: string, usage: Usage) =>
    `  ${label.padEnd(22)}${String(usage.requests).padStart(9)}${tokens(usage.peak).padStart(14)}${tokens(usage.total).padStart(16)}`;
  const peakRatio = rpi.peak / single.peak;
  const peakPhase = [...rpi.peakByPhase].find(([, peak]) => peak === rpi.peak)?.[0] ?? '?';
  console.log(`RPI vs one long loop, the same scripted 12-item job (${toolCalls} tool calls; prompt tokens by the engine's o200k estimate)`);
  console.log(`  ${''.padEnd(22)}${'requests'.padStart(9)}${'peak prompt'.padStart(14)}${'total prompt'.padStart(16)}`);
  console.log(row('RPI', rpi));
  console.log(row('single loop', single));
  console.log(`  ${'ratio RPI / single'.padEnd(31)}${ratio(peakRatio).padStart(14)}${ratio(rpi.total / single.total).padStart(16)}`);
  console.log(`  target: RPI peak ≤ ${target}× the single loop's — ${peakRatio <= target ? 'met' : 'NOT met'}`);
  console.log(`  RPI peak per phase: ${[...rpi.peakByPhase].map(([phase, peak]) => `${phase} ${tokens(peak)}`).join(', ')} (peak in ${peakPhase})`);
}

/** The two measurements of the issue: prompt sizes of RPI against one long loop, and the engine's time per turn. */
export async function benchRpiTokens(): Promise<void> {
  const first = await prepareRpi();
  try {
    await first.run();
    await first.verify();
  } finally {
    await first.dispose();
  }
  const rpiBodies = first.llm.chatRequests();
  const [rpi, single] = await Promise.all([measure(rpiBodies), runSingleLoop().then(measure)]);
  printTokens(rpi, single, work.reduce((sum, step) => sum + step.calls.length, 0));

  const engineRuns = await Promise.all(Array.from({ length: rounds }, () => prepareRpi()));
  const replays = await Promise.all(Array.from({ length: rounds + 1 }, () => prepareReplay(rpiBodies)));
  try {
    const [warmUp, ...timedReplays] = replays;
    await warmUp!.run();
    const nextRun = [...engineRuns];
    const [engineMs = 0, sdkMs = 0] = await interleavedMedians(rounds, [() => nextRun.shift()!.run(), () => timedReplays.shift()!.run()]);
    for (const run of engineRuns) await run.verify();
    const perTurn = engineMs / rpiBodies.length;
    const perRequest = sdkMs / rpiBodies.length;
    const toolMs = median(engineRuns.map((run) => run.toolMs()));
    const outsideTools = perTurn - toolMs / rpiBodies.length;
    const engineRatio = outsideTools / perRequest;
    console.log(`engine time per turn, zero-latency fake model (${rpiBodies.length} requests per RPI run)`);
    console.log(`  engine, whole RPI run / requests   ${format(perTurn)}  (of which inside tool calls ${format(toolMs / rpiBodies.length)})`);
    console.log(`  engine outside tool calls          ${format(outsideTools)}`);
    console.log(`  bare openai SDK, same bodies       ${format(perRequest)}`);
    console.log(`  ratio engine / bare SDK            ${ratio(perTurn / perRequest)}  (median of ${rounds}, run in turns)`);
    console.log(`  ratio outside tools / bare SDK     ${ratio(engineRatio)}  (goal: ≤ ${engineGoal}×) — ${engineRatio <= engineGoal ? 'met' : 'NOT met'}`);
  } finally {
    await Promise.all([...engineRuns, ...replays].map((prepared) => prepared.dispose()));
  }
}
