import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { budgetFor } from '../engine/context/contextBudget.js';
import { startFakeLlm } from '../tests/support/fakeLlm/index.js';
import { say } from '../tests/support/rpiScript.js';
import { fileChars, fileCount, readsPerTurn, readTurns, requestTokens, runResearch, sharedPrefixTokens, writeManyFiles } from '../tests/support/readManyFiles.js';

/**
 * Context budget: the research phase as RPI runs it (its prompt, file map, tools and turn cap) reading 40
 * files whole — of 60 KB, then of 3 KB — two per turn, against the engine's real LLM client and the fake model over HTTP.
 * Per window, the loop with its budget side by side with the same job and no budget (a window so large
 * nothing is trimmed). Every request body the fake received is measured with the engine's tokenizer.
 * Goals: peak request ÷ window ≤ 0.75; inside the loop, each request repeats the one before it as its
 * prefix for ≥ 0.9 of its tokens (what a provider's prompt cache can reuse).
 */

const windows = [8_192, 16_384, 32_768, 128_000];
const noBudget = 100_000_000;
const peakGoal = 0.75;
const prefixGoal = 0.9;

interface Measured {
  requests: number;
  peak: number;
  total: number;
  /** Mean over consecutive requests of the share of each that repeats the previous one's prefix. */
  prefixShare: number;
  /** Share of requests after the first that carry the previous request whole as their prefix. */
  intact: number;
  /** Repeated prefix tokens over all tokens of the requests after the first: what a prompt cache saves. */
  cacheable: number;
  trims: number;
}

async function measure(bodies: readonly ChatCompletionCreateParams[], trims: number): Promise<Measured> {
  const sizes = await Promise.all(bodies.map(requestTokens));
  const shares: number[] = [];
  let intact = 0;
  let sharedTokens = 0;
  for (let index = 1; index < bodies.length; index += 1) {
    const shared = await sharedPrefixTokens(bodies[index - 1]!, bodies[index]!);
    sharedTokens += shared;
    shares.push(shared / sizes[index]!);
    const before = JSON.stringify(bodies[index - 1]!.messages);
    if (JSON.stringify(bodies[index]!.messages.slice(0, bodies[index - 1]!.messages.length)) === before) intact += 1;
  }
  return {
    requests: bodies.length,
    peak: Math.max(...sizes),
    total: sizes.reduce((sum, size) => sum + size, 0),
    prefixShare: shares.reduce((sum, share) => sum + share, 0) / Math.max(1, shares.length),
    intact: intact / Math.max(1, shares.length),
    cacheable: sharedTokens / Math.max(1, sizes.slice(1).reduce((sum, size) => sum + size, 0)),
    trims,
  };
}

async function runJob(root: string, contextWindow: number): Promise<Measured> {
  const llm = await startFakeLlm({ script: [...readTurns(), say('Findings: every module combines the alpha table.')] });
  try {
    const { result, events } = await runResearch({ root, baseUrl: llm.baseUrl, contextWindow });
    if (!result.ok) throw new Error(`research loop failed at a ${contextWindow}-token window (${result.failure}): ${result.error}`);
    if (llm.scriptErrors.length > 0) throw new Error(`the fake model failed: ${llm.scriptErrors.join('; ')}`);
    return await measure(llm.chatRequests(), events.filter((event) => event.type === 'context-trimmed').length);
  } finally {
    await llm.close();
  }
}

const tokens = (value: number) => value.toLocaleString('en-US');

/** The job with files of 60 KB (each read fills much of a small window) and of 3 KB (as most reads are). */
const fileSizes = [fileChars, 3_000];

export async function benchContextBudget(): Promise<void> {
  for (const chars of fileSizes) await benchJob(chars);
}

async function benchJob(chars: number): Promise<void> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'rpi-bench-context-')));
  try {
    await writeManyFiles(root, chars);
    const unbudgeted = await runJob(root, noBudget);
    console.log(`Context budget: research reading ${fileCount} files of ${chars / 1000} KB whole (${readsPerTurn} per turn); prompt tokens by the engine's o200k estimate`);
    console.log(`  ${'window'.padEnd(9)}${'variant'.padEnd(11)}${'requests'.padStart(9)}${'peak'.padStart(10)}${'peak/window'.padStart(13)}${'total prompt'.padStart(14)}${'prefix reuse'.padStart(14)}${'intact'.padStart(8)}${'cacheable'.padStart(11)}${'trims'.padStart(7)}`);
    const row = (window: string, variant: string, measured: Measured, contextWindow: number) =>
      `  ${window.padEnd(9)}${variant.padEnd(11)}${String(measured.requests).padStart(9)}${tokens(measured.peak).padStart(10)}` +
      `${(measured.peak / contextWindow).toFixed(2).padStart(13)}${tokens(measured.total).padStart(14)}${measured.prefixShare.toFixed(2).padStart(14)}${measured.intact.toFixed(2).padStart(8)}${measured.cacheable.toFixed(2).padStart(11)}${String(measured.trims).padStart(7)}`;
    const verdicts: string[] = [];
    for (const contextWindow of windows) {
      const budgeted = await runJob(root, contextWindow);
      console.log(row(tokens(contextWindow), 'budget', budgeted, contextWindow));
      console.log(row('', 'no budget', unbudgeted, contextWindow));
      const peak = budgeted.peak / contextWindow;
      verdicts.push(
        `${tokens(contextWindow)}: peak ${peak.toFixed(2)} ${peak <= peakGoal ? 'met' : 'NOT met'} (budget ${tokens(budgetFor(contextWindow))}), ` +
          `prefix reuse ${budgeted.prefixShare.toFixed(2)} ${budgeted.prefixShare >= prefixGoal ? 'met' : 'not met'} ` +
          `(no budget: ${unbudgeted.prefixShare.toFixed(2)}; cacheable tokens ${budgeted.cacheable.toFixed(2)}, no budget ${unbudgeted.cacheable.toFixed(2)})`,
      );
    }
    console.log(`  goals: peak request ÷ window ≤ ${peakGoal}; prefix reuse ≥ ${prefixGoal} inside a loop`);
    console.log(
      '  prefix reuse: mean over requests of the share that repeats the previous one; intact: share of requests that carry the previous one whole; ' +
        'cacheable: repeated tokens over all tokens sent after the first request (what a prompt cache saves)',
    );
    for (const verdict of verdicts) console.log(`    ${verdict}`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
