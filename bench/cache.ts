import { consecutiveItemShares } from './itemPrefix.js';
import { runRpiJob, runSingleLoop, type RecordedRun } from './rpiRuns.js';
import { median } from './tools.js';

/**
 * Prompt caching: the scripted 12-item job through RPI and through one long loop (rpiRuns.ts), each
 * against its own fake server that caches prompt prefixes the way OpenAI does automatically (a prefix of
 * 1,024 tokens or more, matched in 128-token steps, against any request of the last 10 minutes; see
 * tests/support/fakeLlm/promptCache.ts). Side by side: the share of prompt tokens served from cache, and
 * the cost of input and output weighted as providers bill them (cached input at 0.1× or 0.5× of input,
 * output at 4×), RPI ÷ loop, median of 3 runs. Goals: RPI's cached share at least 0.85, and RPI's
 * cache-weighted cost at most 0.5× the loop's with cached input at 0.1×. Then the share of an Implement
 * item's first request that the next item's repeats from the start (itemPrefix.ts).
 *
 * Every figure is the engine's `usage` events, as it read them from the server; each is checked against
 * what the fake reported for that request.
 */

const runs = 3;
const cachedRates = [0.1, 0.5] as const;
const outputRate = 4;
const goalShare = 0.85;
const goalCostRatio = 0.5;

interface Figures {
  requests: number;
  prompt: number;
  cached: number;
  output: number;
}

function figuresOf(run: RecordedRun, variant: string): Figures {
  const { usage, cacheReports } = run;
  if (usage.length !== cacheReports.length) throw new Error(`${variant}: ${usage.length} usage events for ${cacheReports.length} requests the fake answered.`);
  const differing = usage.findIndex((event, index) => event.promptTokens !== cacheReports[index]!.promptTokens || event.cachedTokens !== cacheReports[index]!.cachedTokens || event.estimated);
  if (differing >= 0) throw new Error(`${variant}: request ${differing + 1}: the engine's usage is not what the fake reported.`);
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  return {
    requests: usage.length,
    prompt: sum(usage.map((event) => event.promptTokens)),
    cached: sum(usage.map((event) => event.cachedTokens ?? 0)),
    output: sum(usage.map((event) => event.completionTokens)),
  };
}

/** Input at 1 per token, cached input at `cachedRate`, output at `outputRate`. */
const cost = ({ prompt, cached, output }: Figures, cachedRate: number) => prompt - cached + cachedRate * cached + outputRate * output;
const share = ({ prompt, cached }: Figures) => cached / prompt;

interface Round {
  rpi: Figures;
  loop: Figures;
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const fixed = (value: number) => value.toFixed(2);

function print(rounds: readonly Round[]): void {
  const med = (pick: (round: Round) => number) => median(rounds.map(pick));
  const row = (label: string, pick: (round: Round) => Figures) =>
    `  ${label.padEnd(14)}${count(med((round) => pick(round).requests)).padStart(9)}${count(med((round) => pick(round).prompt)).padStart(15)}` +
    `${count(med((round) => pick(round).cached)).padStart(15)}${fixed(med((round) => share(pick(round)))).padStart(14)}${count(med((round) => pick(round).output)).padStart(15)}`;
  console.log(`Prompt caching: RPI vs one long loop, the same scripted 12-item job, against a fake server that caches prompt prefixes as OpenAI does`);
  console.log(`(≥ 1,024 tokens, 128-token steps, 10 minutes; o200k tokens), median of ${rounds.length} runs`);
  console.log(`  ${''.padEnd(14)}${'requests'.padStart(9)}${'prompt tokens'.padStart(15)}${'cached'.padStart(15)}${'cached share'.padStart(14)}${'output tokens'.padStart(15)}`);
  console.log(row('RPI', (round) => round.rpi));
  console.log(row('single loop', (round) => round.loop));
  console.log(`  cache-weighted cost (input 1×, output ${outputRate}×), cached input billed at:`);
  console.log(`  ${''.padEnd(14)}${cachedRates.map((rate) => `${rate}×`.padStart(14)).join('')}${'no cache'.padStart(14)}`);
  const rates = [...cachedRates, 1];
  const costRow = (label: string, pick: (round: Round) => Figures) => `  ${label.padEnd(14)}${rates.map((rate) => count(med((round) => cost(pick(round), rate))).padStart(14)).join('')}`;
  console.log(costRow('RPI', (round) => round.rpi));
  console.log(costRow('single loop', (round) => round.loop));
  const ratios = rates.map((rate) => med((round) => cost(round.rpi, rate) / cost(round.loop, rate)));
  console.log(`  ${'RPI ÷ loop'.padEnd(14)}${ratios.map((ratio) => `${fixed(ratio)}×`.padStart(14)).join('')}`);
  const rpiShare = med((round) => share(round.rpi));
  const costRatio = ratios[0]!;
  console.log(`  goal: RPI cached share ≥ ${goalShare} — ${fixed(rpiShare)}, ${rpiShare >= goalShare ? 'met' : 'NOT met'}`);
  console.log(`  goal: RPI cost ≤ ${goalCostRatio}× the loop's at ${cachedRates[0]}× — ${fixed(costRatio)}×, ${costRatio <= goalCostRatio ? 'met' : 'NOT met'}`);
  console.log('  (every figure from the engine’s usage events, checked against what the fake server reported)');
}

export async function benchCache(): Promise<void> {
  const rounds: Round[] = [];
  for (let round = 0; round < runs; round += 1) {
    const rpi = figuresOf(await runRpiJob({ promptCache: true }), 'RPI');
    const loop = figuresOf(await runSingleLoop({ promptCache: true }), 'single loop');
    rounds.push({ rpi, loop });
  }
  print(rounds);
  const shares = await consecutiveItemShares();
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  console.log('Shared prefix of consecutive Implement items’ first requests (5-item job, 150-file folder, 8 KB AGENTS.md; tokens, tools then messages)');
  console.log(`  items 1→2 … 4→5: ${shares.map(percent).join(', ')}`);
}
