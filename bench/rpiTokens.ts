import { OpenAI } from 'openai';
import type { ChatCompletionCreateParams, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { Phase } from '../engine/contract/index.js';
import { createLlmClient } from '../engine/llm/openaiClient.js';
import type { ChatMessage } from '../engine/llm/llmTypes.js';
import { estimatePromptTokens } from '../engine/llm/tokenEstimate.js';
import type { ToolDefinition } from '../engine/tools/toolCatalog.js';
import { startFakeLlm } from '../tests/support/fakeLlm/index.js';
import { phaseOfRequest } from '../tests/support/rpiScript.js';
import { selfTimed } from './referenceRunner.js';
import { prepareRpi, runRpiJob, runSingleLoop } from './rpiRuns.js';
import { rpiScript, work } from './rpiWork.js';
import { format, interleavedMedians, median } from './tools.js';

/**
 * Context size: the same scripted 12-item job (research reads, a 12-item plan, per item a read, five
 * edits and a grep, then a summary) run through RPI and through one long loop (rpiRuns.ts); every request
 * body the fake received is measured with the engine's own tokenizer (estimatePromptTokens). Target: RPI's
 * peak prompt at most 0.35× the single loop's.
 *
 * Engine time per turn: with a zero-latency fake, a whole RPI run divided by its model requests (tools,
 * state files and events included), against the bare openai SDK streaming the same recorded request
 * bodies to the same fake: the part of a turn that is the engine's own.
 */

const rounds = 5;
const target = 0.35;
/** Goal: the engine's own time per turn (outside tool calls) at most this many times the bare SDK's per request. */
const engineGoal = 2;

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

/** Sends one recorded request body to the fake and reads the whole reply; returns how many parts the reply had. */
type Replayer = (baseUrl: string) => (body: ChatCompletionCreateParams) => Promise<number>;

/** The bare SDK: the body as recorded, its stream read to the end. */
const bareSdk: Replayer = (baseUrl) => {
  const sdk = new OpenAI({ baseURL: baseUrl, apiKey: 'no-key', maxRetries: 2 });
  return async (body) => {
    let chunks = 0;
    for await (const chunk of await sdk.chat.completions.create(body as ChatCompletionCreateParamsStreaming)) chunks += chunk.choices.length;
    return chunks;
  };
};

/** The engine's own model client (the one a run calls), given each recorded request's messages and tools. */
const engineClient: Replayer = (baseUrl) => {
  const client = createLlmClient({ baseUrl, apiKey: null, model: 'fake-model' });
  const signal = new AbortController().signal;
  return async (body) => {
    const tools = body.tools as ToolDefinition[] | undefined;
    const reply = await client.complete({ messages: body.messages as ChatMessage[], ...(tools ? { tools } : {}) }, { signal });
    return reply.toolCalls.length + (reply.text ? 1 : 0);
  };
};

/** The recorded RPI request bodies sent in order to a fake serving the same replies, timed request by request. */
async function prepareReplay(bodies: readonly ChatCompletionCreateParams[], replayer: Replayer) {
  const llm = await startFakeLlm({ script: rpiScript(work) });
  const send = replayer(llm.baseUrl);
  return {
    async run() {
      let parts = 0;
      let requestMs = 0;
      for (const body of bodies) {
        const start = performance.now();
        parts += await send(body);
        requestMs += performance.now() - start;
      }
      if (parts === 0 || llm.scriptErrors.length > 0) throw new Error(`replay failed: ${llm.scriptErrors.join('; ')}`);
      return { [selfTimed]: requestMs };
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
  const rpiBodies = (await runRpiJob()).bodies;
  const [rpi, single] = await Promise.all([measure(rpiBodies), runSingleLoop().then((run) => measure(run.bodies))]);
  printTokens(rpi, single, work.reduce((sum, step) => sum + step.calls.length, 0));

  const engineRuns = await Promise.all(Array.from({ length: rounds }, () => prepareRpi()));
  const replays = await Promise.all(Array.from({ length: rounds + 1 }, () => prepareReplay(rpiBodies, bareSdk)));
  const clientReplays = await Promise.all(Array.from({ length: rounds + 1 }, () => prepareReplay(rpiBodies, engineClient)));
  try {
    const [warmUp, ...timedReplays] = replays;
    const [clientWarmUp, ...timedClientReplays] = clientReplays;
    await warmUp!.run();
    await clientWarmUp!.run();
    const nextRun = [...engineRuns];
    const [engineMs = 0, sdkMs = 0, clientMs = 0] = await interleavedMedians(rounds, [
      () => nextRun.shift()!.run(),
      () => timedReplays.shift()!.run(),
      () => timedClientReplays.shift()!.run(),
    ], { rotate: true });
    for (const run of engineRuns) await run.verify();
    const requests = rpiBodies.length;
    const perTurn = engineMs / requests;
    const perRequest = sdkMs / requests;
    const toolMs = median(engineRuns.map((run) => run.toolMs()));
    // Each run's own time outside tools (its whole time less its own tool time), the median of those.
    const outsideTools = median(engineRuns.map((run) => run.runMs() - run.toolMs())) / requests;
    const inModelCalls = median(engineRuns.map((run) => run.modelMs())) / requests;
    const engineRatio = outsideTools / perRequest;
    console.log(`engine time per turn, zero-latency fake model (${requests} requests per RPI run)`);
    console.log(`  engine, whole RPI run / requests   ${format(perTurn)}  (of which inside tool calls ${format(toolMs / requests)})`);
    console.log(`  engine outside tool calls          ${format(outsideTools)}  (of which in model calls ${format(inModelCalls)}, the rest between them)`);
    console.log(`  bare openai SDK, same bodies       ${format(perRequest)}`);
    console.log(`  engine's model client, same bodies ${format(clientMs / requests)}  (${ratio(clientMs / sdkMs)} the bare SDK: the client alone, outside a run)`);
    console.log(`  whole engine ÷ bare SDK            ${ratio(perTurn / perRequest)}  (median of ${rounds}, run in turns, each round starting with the next)`);
    console.log(`  engine outside tools ÷ bare SDK    ${ratio(engineRatio)}  (goal: ≤ ${engineGoal}×) — ${engineRatio <= engineGoal ? 'met' : 'NOT met'}`);
  } finally {
    await Promise.all([...engineRuns, ...replays, ...clientReplays].map((prepared) => prepared.dispose()));
  }
}
