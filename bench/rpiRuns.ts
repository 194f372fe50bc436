import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { runAgentLoop } from '../engine/agent/runAgentLoop.js';
import { defaultLoopLimits } from '../engine/agent/loopLimits.js';
import { ToolModeState } from '../engine/agent/toolMode.js';
import type { EventOf } from '../engine/contract/index.js';
import { createLlmClient } from '../engine/llm/openaiClient.js';
import { openToolLog } from '../engine/store/toolLog.js';
import { getFileMap } from '../engine/tools/getFileMap.js';
import { toolsForPhase } from '../engine/tools/toolCatalog.js';
import { toolOfferFor } from '../engine/tools/toolOffer.js';
import { openWorkbench, type RunOptions } from '../engine/index.js';
import { Workspace } from '../engine/workspace/workspace.js';
import { startFakeLlm, type CacheReport, type FakeLlm, type FakeLlmOptions } from '../tests/support/fakeLlm/index.js';
import { autoApprovals } from '../tests/support/rpiScript.js';
import { startRun } from '../tests/support/startRun.js';
import { selfTimed } from './referenceRunner.js';
import { entities, moduleSource, writeProject } from './rpiProject.js';
import { request, rpiScript, singleLoopScript, work } from './rpiWork.js';

/**
 * The scripted 12-item job of rpiWork.ts served two ways, both with the engine's real LLM client over
 * HTTP against the fake model, real tools on a real temp project, and the same replies: (a) through RPI
 * via openWorkbench + send, each phase and each item in a fresh context; (b) through one runAgentLoop with
 * every tool that keeps its whole history, the single-loop design RPI replaced (seed 003).
 */

const commandEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

const singleLoopPrompt = `You are a coding agent working in the user's project folder. Handle the user's request in this one conversation, from start to finish:
1. Research: read the files that matter (start from the file map below; use get_file_map, list_files, search_files and read_file) until you know how the relevant parts work. Write down your findings.
2. Plan: write a short numbered plan of the changes, each item one coherent change with the files it touches and how to verify it.
3. Implement: carry out the items in order. Read before you write; change files with edit_file (exact old_text, matching once) or write_file for new files; use run_command for builds, tests and checks. Verify each item before going on.
Paths are relative to the project folder; you cannot reach outside it. When every item is done and verified, reply without a tool call with a short summary for the user: what changed (files), how it was verified, and anything left undone.`;

/** What one way of running the job sent and was told. */
export interface RecordedRun {
  /** Every request body the fake received, in order. */
  bodies: ChatCompletionCreateParams[];
  /** The usage events the engine emitted, one per model call, as it read them from the server. */
  usage: EventOf<'usage'>[];
  /** What the fake's prompt cache reported per request; empty when it ran without one. */
  cacheReports: readonly CacheReport[];
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

/** A project, a fake model (started with `fake`) and an opened workbench, ready to send the request. */
export async function prepareRpi(fake: Omit<FakeLlmOptions, 'script'> = {}) {
  const root = await tempFolder('rpi-bench-rpi-');
  await writeProject(root);
  const llm = await startFakeLlm({ ...fake, script: rpiScript(work) });
  const workbench = await openWorkbench(root, rpiOptions(llm));
  let toolMs = 0;
  let modelMs = 0;
  let runMs = 0;
  let modelCallStart: number | null = null;
  const usage: EventOf<'usage'>[] = [];
  workbench.subscribe((event) => {
    if (event.type === 'tool-finished') toolMs += event.durationMs;
    // A model call, as the run view sees it: from the request sent (waiting) to the reply's usage.
    if (event.type === 'model-status' && event.state === 'waiting') modelCallStart ??= performance.now();
    if (event.type === 'usage') {
      usage.push(event);
      if (modelCallStart !== null) modelMs += performance.now() - modelCallStart;
      modelCallStart = null;
    }
  });
  return {
    llm,
    /** Time spent inside tool calls (reads, edits, grep commands), as the tool-finished events report it. */
    toolMs: () => toolMs,
    /** Time spent in model calls, from each request sent to its reply's usage. */
    modelMs: () => modelMs,
    /** The whole run, from the request sent to the run's end. */
    runMs: () => runMs,
    /** Runs the job; its time (runMs) is the one a bench run in turns counts (see interleavedMedians). */
    async run() {
      const start = performance.now();
      const result = await (await startRun(workbench, request)).finished;
      runMs = performance.now() - start;
      if (result.status !== 'done') throw new Error(`RPI run ${result.status} in ${result.phase ?? '?'}: ${result.error ?? ''}`);
      return { [selfTimed]: runMs };
    },
    verify: () => checkDone(root, llm, 'RPI'),
    recorded: (): RecordedRun => ({ bodies: llm.chatRequests(), usage, cacheReports: llm.promptCache?.reports ?? [] }),
    async dispose() {
      await workbench.close();
      await llm.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** One whole RPI run of the job, checked and cleaned up. */
export async function runRpiJob(fake: Omit<FakeLlmOptions, 'script'> = {}): Promise<RecordedRun> {
  const prepared = await prepareRpi(fake);
  try {
    await prepared.run();
    await prepared.verify();
    return prepared.recorded();
  } finally {
    await prepared.dispose();
  }
}

/** The same job as one long tool loop that keeps its whole history, checked and cleaned up. */
export async function runSingleLoop(fake: Omit<FakeLlmOptions, 'script'> = {}): Promise<RecordedRun> {
  const root = await tempFolder('rpi-bench-single-');
  const stateDir = await tempFolder('rpi-bench-single-state-');
  const llm = await startFakeLlm({ ...fake, script: singleLoopScript(work) });
  const toolLog = await openToolLog(stateDir);
  try {
    await writeProject(root);
    const signal = new AbortController().signal;
    const toolContext = { workspace: await Workspace.at(root), recall: (id: number) => toolLog.recall(id), childEnv: commandEnv, log: () => {}, maskSecrets: (text: string) => text };
    const manifest = await getFileMap.run({ path: '.', depth: 3 }, { ...toolContext, signal });
    const usage: EventOf<'usage'>[] = [];
    let calls = 0;
    const result = await runAgentLoop({
      phase: 'implement',
      runId: 'single-loop',
      llm: createLlmClient({ baseUrl: llm.baseUrl, apiKey: null, model: 'fake-model' }),
      toolMode: new ToolModeState('native'),
      messages: [
        { role: 'system', content: singleLoopPrompt },
        { role: 'user', content: `## File map of the project folder\n${manifest.text}\n\n## The user’s request\n${request}` },
      ],
      // Offered as RPI offers them in this folder: both sides send the same tool definitions.
      tools: toolsForPhase('implement', await toolOfferFor(root, [request])),
      maxTurns: 500,
      limits: { ...defaultLoopLimits, timeoutMs: 10 * 60_000 },
      finalAnswerAtCap: false,
      toolContext,
      toolLog,
      emit: (event) => {
        if (event.type === 'usage') usage.push({ ...event, seq: usage.length + 1 });
      },
      nextCallId: () => `single-${(calls += 1)}`,
      contextWindow: 128_000,
      signal,
    });
    if (!result.ok) throw new Error(`single loop failed (${result.failure}): ${result.error}`);
    await checkDone(root, llm, 'single loop');
    return { bodies: llm.chatRequests(), usage, cacheReports: llm.promptCache?.reports ?? [] };
  } finally {
    await toolLog.close();
    await llm.close();
    await Promise.all([root, stateDir].map((folder) => rm(folder, { recursive: true, force: true })));
  }
}
